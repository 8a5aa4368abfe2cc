import type { z } from 'zod';

export type FieldType = 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'object' | 'unknown';

export interface FieldInfo {
  name: string;
  type: FieldType;
  optional: boolean;
  defaultValue: unknown;
  description: string;
  values: readonly string[];
  itemType: FieldType;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  defaultValue?: unknown;
}

function defOf(schema: z.ZodType): Def {
  // zod 4 keeps the structural definition on `.def`; this module is the one place that reads it.
  return (schema as unknown as { def: Def }).def;
}

function baseType(schema: z.ZodType): { type: FieldType; values: readonly string[]; inner: z.ZodType } {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return { type: 'string', values: [], inner: schema };
    case 'number':
      return { type: 'number', values: [], inner: schema };
    case 'boolean':
      return { type: 'boolean', values: [], inner: schema };
    case 'enum':
      return { type: 'enum', values: Object.values(def.entries ?? {}), inner: schema };
    case 'array':
      return { type: 'array', values: [], inner: schema };
    case 'object':
    case 'record':
      return { type: 'object', values: [], inner: schema };
    case 'union': {
      // one value or a list of them (`select`'s option): the CLI gathers a list, which the union takes
      const list = def.options?.find((option) => defOf(option).type === 'array');
      return list ? baseType(list) : { type: 'unknown', values: [], inner: schema };
    }
    case 'pipe': {
      // a preprocess (a transform, then the schema) is of the type it hands on: TabId takes a number as a string
      const side = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
      return side ? baseType(side) : { type: 'unknown', values: [], inner: schema };
    }
    default:
      return { type: 'unknown', values: [], inner: schema };
  }
}

/** Describes one field of a command's input object: what the CLI, docs and tools need to know. */
export function describeField(name: string, schema: z.ZodType): FieldInfo {
  let current = schema;
  let optional = false;
  let defaultValue: unknown;
  let description = schema.description ?? '';
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' && def.innerType) {
      optional = true;
      current = def.innerType;
    } else if (def.type === 'default' && def.innerType) {
      optional = true;
      defaultValue = def.defaultValue;
      current = def.innerType;
    } else if (def.type === 'nullable' && def.innerType) {
      current = def.innerType;
    } else {
      break;
    }
    description ||= current.description ?? '';
  }
  const base = baseType(current);
  if (!description && base.inner !== current) description = base.inner.description ?? '';
  const element = defOf(base.inner).element;
  return {
    name,
    type: base.type,
    optional,
    defaultValue,
    description,
    values: base.values,
    itemType: base.type === 'array' && element ? baseType(element).type : 'unknown',
  };
}

export function describeInput(input: z.ZodObject): FieldInfo[] {
  return Object.entries(input.shape).map(([name, schema]) => describeField(name, schema as z.ZodType));
}
