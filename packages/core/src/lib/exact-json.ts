/**
 * trpc-to-openapi sets `coerce` on every number/boolean field of an input object, bodies included,
 * so `"amount": "100"`, `true` or `[5]` would pass as numbers. Wrapping a field in a pipe hides it
 * from that coercion (the adapter does not look inside pipes); the documented schema is the inner one.
 */
import { z } from 'zod';

export const exactJson = <T extends z.ZodType>(schema: T) => schema.pipe(z.custom<z.output<T>>(() => true));
