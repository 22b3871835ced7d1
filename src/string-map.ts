// Map-shaped schemas (name -> value). TypeBox's `Type.Record(Type.String(), V)` matches keys with `^(.*)$`, and
// `.` stops at line breaks: a key like "a\nb" matched no pattern, so its value was never checked (a number then
// reached the service code as a 500). Every map in the service uses this one instead, whose key pattern
// matches any string.
import { Type, type TSchema, type SchemaOptions } from '@sinclair/typebox';

const AnyKey = Type.String({ pattern: '^[\\s\\S]*$' });

/** An object of any keys whose every value is `value`. */
export const StringMap = <V extends TSchema>(value: V, options?: SchemaOptions) => Type.Record(AnyKey, value, options);
