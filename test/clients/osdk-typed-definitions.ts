/* eslint-disable @typescript-eslint/no-namespace, @typescript-eslint/no-empty-object-type -- the generator's own shape: namespaces merged with interfaces, empty interface maps */
// Object, query and action definitions for the conformance seed (test/ontologies/fixture.ts), written by hand
// in the shape the platform's SDK generator emits for an app: a runtime constant per definition plus the
// compile-time metadata the typed client reads its types from.
import type {
  ActionDefinition,
  ActionMetadata,
  ActionParam,
  ActionReturnTypeForOptions,
  ApplyActionOptions,
  ApplyBatchActionOptions,
  ObjectMetadata as $ObjectMetadata,
  ObjectSet as $ObjectSet,
  ObjectTypeDefinition,
  PropertyDef as $PropertyDef,
  PropertyValueWireToClient as $PropType,
  QueryDefinition,
  SingleLinkAccessor as $SingleLinkAccessor,
} from '@osdk/api';

const osdkMetadata = { extraUserAgent: '' };

export namespace Employee {
  export interface Props {
    readonly employeeId: $PropType['integer'];
    readonly fullName: $PropType['string'] | undefined;
    readonly title: $PropType['string'] | undefined;
    readonly officeId: $PropType['string'] | undefined;
    readonly hiredOn: $PropType['datetime'] | undefined;
    readonly lastLogin: $PropType['timestamp'] | undefined;
    readonly salary: $PropType['double'] | undefined;
    readonly rating: $PropType['float'] | undefined;
    readonly level: $PropType['short'] | undefined;
    readonly badge: $PropType['byte'] | undefined;
    readonly bigId: $PropType['long'] | undefined;
    readonly bonus: $PropType['decimal'] | undefined;
    readonly active: $PropType['boolean'] | undefined;
    readonly skills: $PropType['string'][] | undefined;
    readonly address: { city: string | undefined; zip: string | undefined } | undefined;
    readonly home: $PropType['geopoint'] | undefined;
    readonly bio: $PropType['string'] | undefined;
  }
  export type StrictProps = Props;
  export interface Links {
    readonly office: $SingleLinkAccessor<Office>;
    readonly mentors: Employee.ObjectSet;
    readonly mentees: Employee.ObjectSet;
  }
  export interface ObjectSet extends $ObjectSet<Employee, Employee.ObjectSet> {}
}

export interface Employee extends ObjectTypeDefinition {
  osdkMetadata: typeof osdkMetadata;
  type: 'object';
  apiName: 'Employee';
  __DefinitionMetadata?: {
    objectSet: Employee.ObjectSet;
    props: Employee.Props;
    linksType: Employee.Links;
    strictProps: Employee.StrictProps;
    apiName: 'Employee';
    description: undefined;
    displayName: 'Employee';
    icon: { type: 'blueprint'; color: '#4C90F0'; name: 'cube' };
    interfaceMap: {};
    inverseInterfaceMap: {};
    links: {
      office: $ObjectMetadata.Link<Office, false>;
      mentors: $ObjectMetadata.Link<Employee, true>;
      mentees: $ObjectMetadata.Link<Employee, true>;
    };
    pluralDisplayName: 'Employees';
    primaryKeyApiName: 'employeeId';
    primaryKeyType: 'integer';
    properties: {
      employeeId: $PropertyDef<'integer', 'non-nullable', 'single'>;
      fullName: $PropertyDef<'string', 'nullable', 'single'>;
      title: $PropertyDef<'string', 'nullable', 'single'>;
      officeId: $PropertyDef<'string', 'nullable', 'single'>;
      hiredOn: $PropertyDef<'datetime', 'nullable', 'single'>;
      lastLogin: $PropertyDef<'timestamp', 'nullable', 'single'>;
      salary: $PropertyDef<'double', 'nullable', 'single'>;
      rating: $PropertyDef<'float', 'nullable', 'single'>;
      level: $PropertyDef<'short', 'nullable', 'single'>;
      badge: $PropertyDef<'byte', 'nullable', 'single'>;
      bigId: $PropertyDef<'long', 'nullable', 'single'>;
      bonus: $PropertyDef<'decimal', 'nullable', 'single'>;
      active: $PropertyDef<'boolean', 'nullable', 'single'>;
      skills: $PropertyDef<'string', 'nullable', 'array'>;
      address: $PropertyDef<{ city: 'string'; zip: 'string' }, 'nullable', 'single'>;
      home: $PropertyDef<'geopoint', 'nullable', 'single'>;
      bio: $PropertyDef<'string', 'nullable', 'single'>;
    };
    rid: string;
    status: 'ACTIVE';
    titleProperty: 'fullName';
    type: 'object';
    visibility: 'NORMAL';
  };
}

export const Employee: Employee = { type: 'object', apiName: 'Employee', osdkMetadata };

export namespace Office {
  export interface Props {
    readonly officeId: $PropType['string'];
    readonly name: $PropType['string'] | undefined;
    readonly capacity: $PropType['integer'] | undefined;
  }
  export type StrictProps = Props;
  export interface Links {
    readonly occupants: Employee.ObjectSet;
  }
  export interface ObjectSet extends $ObjectSet<Office, Office.ObjectSet> {}
}

export interface Office extends ObjectTypeDefinition {
  osdkMetadata: typeof osdkMetadata;
  type: 'object';
  apiName: 'Office';
  __DefinitionMetadata?: {
    objectSet: Office.ObjectSet;
    props: Office.Props;
    linksType: Office.Links;
    strictProps: Office.StrictProps;
    apiName: 'Office';
    description: undefined;
    displayName: 'Office';
    icon: { type: 'blueprint'; color: '#4C90F0'; name: 'cube' };
    interfaceMap: {};
    inverseInterfaceMap: {};
    links: { occupants: $ObjectMetadata.Link<Employee, true> };
    pluralDisplayName: 'Offices';
    primaryKeyApiName: 'officeId';
    primaryKeyType: 'string';
    properties: {
      officeId: $PropertyDef<'string', 'non-nullable', 'single'>;
      name: $PropertyDef<'string', 'nullable', 'single'>;
      capacity: $PropertyDef<'integer', 'nullable', 'single'>;
    };
    rid: string;
    status: 'ACTIVE';
    titleProperty: 'name';
    type: 'object';
    visibility: 'NORMAL';
  };
}

export const Office: Office = { type: 'object', apiName: 'Office', osdkMetadata };

export namespace greet {
  export interface Signature {
    (query: { readonly name: string; readonly times?: number }): Promise<string>;
  }
}
export interface greet extends QueryDefinition<greet.Signature> {
  __DefinitionMetadata?: {
    apiName: 'greet';
    rid: string;
    type: 'query';
    version: '1.2.0';
    parameters: { name: { type: 'string'; nullable: false }; times: { type: 'integer'; nullable: true } };
    output: { type: 'string'; nullable: false };
    signature: greet.Signature;
  };
  apiName: 'greet';
  type: 'query';
  version: '1.2.0';
  osdkMetadata: typeof osdkMetadata;
}
export const greet: greet = { type: 'query', apiName: 'greet', version: '1.2.0', osdkMetadata };

export namespace headcount {
  export interface Signature {
    (query: { readonly office: Office | { $primaryKey: string; $apiName: 'Office' } | string }): Promise<number>;
  }
}
export interface headcount extends QueryDefinition<headcount.Signature> {
  __DefinitionMetadata?: {
    apiName: 'headcount';
    rid: string;
    type: 'query';
    version: '0.0.0';
    parameters: { office: { type: 'object'; object: 'Office'; nullable: false } };
    output: { type: 'integer'; nullable: false };
    signature: headcount.Signature;
  };
  apiName: 'headcount';
  type: 'query';
  version: '0.0.0';
  osdkMetadata: typeof osdkMetadata;
}
export const headcount: headcount = { type: 'query', apiName: 'headcount', version: '0.0.0', osdkMetadata };

/** Params in the generator's form; the signatures are written out as it writes them. */
interface Signatures<P> {
  applyAction<OP extends ApplyActionOptions>(args: P, options?: OP): Promise<ActionReturnTypeForOptions<OP>>;
  batchApplyAction<OP extends ApplyBatchActionOptions>(args: ReadonlyArray<P>, options?: OP): Promise<ActionReturnTypeForOptions<OP>>;
}
type Action<Name extends string, P, Meta> = ActionDefinition<Signatures<P>> & {
  apiName: Name;
  type: 'action';
  osdkMetadata: typeof osdkMetadata;
  __DefinitionMetadata?: { signatures: Signatures<P>; apiName: Name; type: 'action'; rid: string; status: 'ACTIVE'; parameters: Meta };
};
type ObjectParam<T extends ObjectTypeDefinition> = { type: ActionMetadata.DataType.Object<T>; nullable: false };

export type promoteEmployee = Action<
  'promoteEmployee',
  { readonly employee: ActionParam.ObjectType<Employee>; readonly newTitle: ActionParam.PrimitiveType<'string'> },
  { employee: ObjectParam<Employee>; newTitle: { type: 'string'; nullable: false } }
>;
export const promoteEmployee: promoteEmployee = { type: 'action', apiName: 'promoteEmployee', osdkMetadata };

export type hireEmployee = Action<
  'hireEmployee',
  {
    readonly employeeId: ActionParam.PrimitiveType<'integer'>;
    readonly fullName: ActionParam.PrimitiveType<'string'>;
    readonly office?: ActionParam.ObjectType<Office>;
  },
  {
    employeeId: { type: 'integer'; nullable: false };
    fullName: { type: 'string'; nullable: false };
    office: { type: ActionMetadata.DataType.Object<Office>; nullable: true };
  }
>;
export const hireEmployee: hireEmployee = { type: 'action', apiName: 'hireEmployee', osdkMetadata };

export type assignMentor = Action<
  'assignMentor',
  { readonly employee: ActionParam.ObjectType<Employee>; readonly mentor: ActionParam.ObjectType<Employee> },
  { employee: ObjectParam<Employee>; mentor: ObjectParam<Employee> }
>;
export const assignMentor: assignMentor = { type: 'action', apiName: 'assignMentor', osdkMetadata };

export type moveEmployee = Action<
  'moveEmployee',
  { readonly employee: ActionParam.ObjectType<Employee>; readonly office: ActionParam.ObjectType<Office> },
  { employee: ObjectParam<Employee>; office: ObjectParam<Office> }
>;
export const moveEmployee: moveEmployee = { type: 'action', apiName: 'moveEmployee', osdkMetadata };
