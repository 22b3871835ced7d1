// Query-string pieces shared by the directory's list routes. Values arrive as text (the app does not coerce
// types), so numbers and booleans are read by the handlers (src/services/paging.ts, `isTrue`).
import { Type } from '@sinclair/typebox';

export const Paging = { pageSize: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), preview: Type.Optional(Type.String()) };
export const Transitive = { transitive: Type.Optional(Type.String({ pattern: '^([Tt]rue|[Ff]alse)$' })) };
export const isTrue = (value: string | undefined) => value?.toLowerCase() === 'true';
