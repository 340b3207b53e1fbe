// The registry that names the response shapes (they become components/schemas/<id>) and
// carries field descriptions. It is ours, not zod's global one: a module evaluated twice
// (test files, bundles) registers its ids in a fresh registry instead of colliding.
import { z } from "zod";

export interface ComponentMeta {
  /** Set on a shape that becomes `#/components/schemas/<id>`. */
  id?: string;
  description?: string;
}

export const components = z.registry<ComponentMeta>();

/** A shape of its own in the document, referenced wherever it occurs. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  components.add(schema, { id, description });
  return schema;
}

/** A field with a description; pass a fresh schema, since the description sticks to the object. */
export function described<T extends z.ZodType>(schema: T, description: string): T {
  // Describing a named shape in place would replace its name; describe the field's wrapper instead.
  if (components.get(schema)?.id) throw new Error(`described() on the named shape ${components.get(schema)?.id}`);
  components.add(schema, { description });
  return schema;
}

// Fresh instances each call, so a description on one field never lands on another.
export const uuidString = () => z.uuid();
export const timestamp = () => z.iso.datetime();
export const count = () => z.int().nonnegative();

/** A path or query id: a malformed one names nothing that exists. */
export const uuid = z.string().uuid();
