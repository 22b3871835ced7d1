// The commented starter config written by `platform-emulator init`. A test keeps it valid.
export const STARTER_CONFIG = `# platform-emulator seed configuration.
# Every key sits under the root key \`platform\`. Start the emulator with:
#   npx platform-emulator --config platform-emulator.yaml
platform:
  port: 4000                      # --port and the PORT environment variable override it
  # host: 127.0.0.1               # control routes (/_emulate/platform/...) answer only on loopback
  # base_url: http://localhost:4000   # used in every absolute URL the service hands out
  # control_token: change-me      # lets control routes answer on a non-loopback host

  # Human users appear on the sign-in page; a service user is tied to an OAuth client.
  # Without a user named "admin", a default admin (admin@localhost) is added first.
  users:
    - username: alice
      display_name: Alice Example
      email: alice@example.com
      given_name: Alice
      family_name: Example
      attributes:
        team: [data-science]
    - username: pipeline-bot
      principal_type: service
      oauth_client_id: pipeline

  # With no clients at all the server runs in open mode: any client_id is accepted as a public client.
  oauth_clients:
    - client_id: my-app
      client_secret: my-app-secret
      redirect_uris: [http://localhost:8080/auth/callback]
      # grant_types: [authorization_code, refresh_token, client_credentials]
      # allowed_scopes: []        # empty means any scope
    - client_id: pipeline
      client_secret: pipeline-secret
      grant_types: [client_credentials]

  enrollment:
    name: Default Enrollment

  connections:
    - rid: ri.magritte..source.weather   # default: derived from the display name
      display_name: Weather API
      parent_folder_rid: ri.compass.main.folder.example
      domains:
        - host: api.weather.example
          port: 443
          scheme: HTTPS

  ontologies:
    - api_name: example-ontology
      display_name: Example Ontology
      description: Seeded for local development
      queries:
        - api_name: getGreeting
          result: { value: "hello" }

  compute_modules:
    runtimes:
      - runtime_id: my-runtime
        # module_auth_token: fixed-token   # generated when omitted
    deployed_apps:
      - deployed_app_rid: ri.foundry.main.deployed-app.example
        runtime_id: my-runtime
        branch: master
        # functions: { namespace: example, ontologies: [example-ontology] }   # its functions as queries (docs/functions.md)
        # client_id: pipeline            # a confidential client whose token the module gets (docs/functions.md)
        # sources: [{ api_name: weather, connection: ri.magritte..source.weather }]
        # resources: { input: { rid: ri.foundry.main.dataset.readings } }   # pipeline mode's aliases (docs/streams.md)
    # The state export writes those per app under functions:, module_environments: and pipelines: ({ apps: [...] });
    # a seed may use either form.
    # poll_timeout_ms: 2000        # how long a runtime's job poll is held before 204
    # execute_timeout_ms: 300000   # how long a synchronous execute waits before 504

  # Directory: groups, markings that guard resources, and the folder tree (docs/directory.md).
  groups:
    - name: analysts
      members: [alice]             # usernames, or { group: name }
  marking_categories:
    - { id: classification, name: Classification, type: CONJUNCTIVE }
  markings:
    - { id: internal, name: INTERNAL, category: classification, members: [{ group: analysts }] }
  spaces: [{ rid: ri.compass.main.folder.space-main, name: Main }]
  projects: [{ rid: ri.compass.main.folder.project-demo, name: Demo, space: ri.compass.main.folder.space-main }]
  folders: [{ rid: ri.compass.main.folder.example, name: example, parent: ri.compass.main.folder.project-demo }]
  # resources: [{ rid: ri.foundry.main.dataset.sales, name: sales, parent: ri.compass.main.folder.example, type: FOUNDRY_DATASET }]
  # cbac_banner: { classification: UNCLASSIFIED, text_color: "#fff", background_colors: ["#3a3"] }

  # Datasets: files in one committed SNAPSHOT on the first branch, read back by readTable (docs/datasets.md).
  datasets:
    - rid: ri.foundry.main.dataset.readings   # default: a new rid
      name: readings
      parent_folder_rid: ri.compass.main.folder.example
      schema: { sensor: string, value: double, at: timestamp }
      branches: [master, develop]
      files:
        - { path: part-0.csv, content: "sensor,value,at\\na,1.5,2026-01-01T00:00:00Z\\n" }
        # - { path: part-1.parquet, from: ./data/part-1.parquet }   # a file beside this one

  # Streams: records pushed and read, as pipelines and modules in pipeline mode use them (docs/streams.md).
  streams:
    - name: events
      parent_folder_rid: ri.compass.main.folder.example
      schema: { id: string, temperature: double }
      records: [{ id: a, temperature: 20.5 }]

  # limits:                        # memory caps (README "Limits"); the defaults suit any test suite
  #   max_pending_sign_ins: 10000  # past it the oldest pending sign-in is forgotten
  #   max_access_tokens: 100000    # past it new tokens are refused (503 temporarily_unavailable)
  #   max_service_principals: 10000  # open mode: past it a new client_id is refused (503)
`;
