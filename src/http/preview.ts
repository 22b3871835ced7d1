// `?preview=` on platform routes (docs/contracts.md §10): accepted and never required, its value in any letter case
// (`true`, `True`, `TRUE`; clients that print a language's boolean send `True`). One schema for every route
// family; other query parameters are left to the route (this one ignores them).
import { Type } from '@sinclair/typebox';

/** `true` or `false`, any letter case. */
export const PREVIEW_VALUE = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$';

export const PreviewQuery = Type.Object(
  { preview: Type.Optional(Type.String({ pattern: PREVIEW_VALUE, description: 'true or false, in any letter case' })) },
  { additionalProperties: true },
);

/** Whether a preview value asks for preview; for routes that read it. */
export const isPreview = (value: string | undefined): boolean => value?.toLowerCase() === 'true';
