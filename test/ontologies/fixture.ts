// One seed for the ontology tests and the client conformance tests: every property type a seed can write,
// a one-to-many link by foreign key, a many-to-many link by pairs, typed queries and action types.
export const ACME_RID = 'ri.ontology.main.ontology.acme';

export const ACME_SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: acme
      display_name: Acme
      rid: ${ACME_RID}
      object_types:
        - api_name: Employee
          plural_display_name: Employees
          primary_key: employeeId
          title_property: fullName
          properties:
            employeeId: integer
            fullName: string
            title: string
            officeId: string
            hiredOn: date
            lastLogin: timestamp
            salary: double
            rating: float
            level: short
            badge: byte
            bigId: long
            bonus: decimal
            active: boolean
            skills: { type: array, subType: { type: string } }
            address: { type: struct, structFieldTypes: [{ apiName: city, dataType: { type: string } }, { apiName: zip, dataType: { type: string } }] }
            home: geopoint
            bio: string
          links:
            - { api_name: office, target: Office, foreign_key: officeId, reverse: occupants }
            - { api_name: mentors, target: Employee, reverse: mentees, pairs: [[2, 1], [3, 1], [3, 2], [4, 3]] }
        - api_name: Office
          primary_key: officeId
          title_property: name
          properties: { officeId: string, name: string, capacity: integer }
      objects:
        Office:
          - { officeId: nyc, name: New York, capacity: 40 }
          - { officeId: ldn, name: London, capacity: 25 }
          - { officeId: sfo, name: San Francisco }
        Employee:
          - { employeeId: 1, fullName: Alice Adams, title: Director, officeId: nyc, hiredOn: "2015-03-01", lastLogin: "2024-05-01T09:00:00Z", salary: 200000, rating: 4.5, level: 7, badge: 1, bigId: 9007199254740991, bonus: "1500.50", active: true, skills: [go, rust, sql], address: { city: New York, zip: "10001" }, home: { type: Point, coordinates: [-73.99, 40.73] }, bio: "Leads the platform team in New York" }
          - { employeeId: 2, fullName: Bob Brown, title: Engineer, officeId: nyc, hiredOn: "2019-07-15", lastLogin: "2024-05-02T10:30:00Z", salary: 120000, rating: 3.5, level: 4, badge: 2, bigId: 2, bonus: 500, active: true, skills: [go, typescript], address: { city: New York, zip: "10002" }, bio: "Builds the typed client and the platform" }
          - { employeeId: 3, fullName: Carol Chen, title: Engineer, officeId: ldn, hiredOn: "2020-01-02", lastLogin: "2024-04-30T08:00:00+01:00", salary: 130000, rating: 4.0, level: 5, badge: 3, bigId: 3, active: false, skills: [python], address: { city: London, zip: "EC1" }, bio: "Data pipelines in London" }
          - { employeeId: 4, fullName: Dan Diaz, title: Analyst, officeId: ldn, hiredOn: "2022-11-30", salary: 90000, level: 2, badge: 4, bigId: 4, active: true, skills: [], bio: "Joined from the New York team" }
          - { employeeId: 5, fullName: Eve Evans, title: Intern, hiredOn: "2024-06-01", salary: 40000, level: 1, badge: 5, bigId: 5, active: true }
      queries:
        - api_name: greet
          version: 1.2.0
          parameters: { name: string, times: { type: integer, required: false } }
          output: string
          cases:
            - { when: { name: Zoe }, result: { value: hello Zoe } }
            - { when: { name: Zoe, times: 2 }, result: { value: hello Zoe Zoe } }
          result: { value: "hello, stranger" }
        - api_name: headcount
          parameters: { office: { type: object, objectTypeApiName: Office } }
          output: integer
          cases: [{ when: { office: nyc }, result: { value: 2 } }]
          result: { value: 0 }
        - { api_name: untyped, result: { value: 17 } }
      action_types:
        - api_name: promoteEmployee
          parameters:
            employee: { type: object, objectTypeApiName: Employee }
            newTitle: string
          edits:
            - { modify: Employee, primary_key: $employee, set: { title: $newTitle } }
        - api_name: hireEmployee
          parameters:
            employeeId: integer
            fullName: string
            office: { type: object, objectTypeApiName: Office, required: false }
          edits:
            - { create: Employee, values: { employeeId: $employeeId, fullName: $fullName, officeId: $office, active: true } }
        - api_name: assignMentor
          parameters:
            employee: { type: object, objectTypeApiName: Employee }
            mentor: { type: object, objectTypeApiName: Employee }
          edits:
            - { link: Employee, primary_key: $employee, link_type: mentors, target: $mentor }
        - api_name: moveEmployee
          parameters:
            employee: { type: object, objectTypeApiName: Employee }
            office: { type: object, objectTypeApiName: Office }
          edits:
            - { link: Employee, primary_key: $employee, link_type: office, target: $office }
        - api_name: fireEmployee
          parameters: { employee: { type: object, objectTypeApiName: Employee } }
          edits:
            - { delete: Employee, primary_key: $employee }
`;
