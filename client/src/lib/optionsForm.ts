/**
 * The create-room dialog is generated from each game's `options_schema` (a JSON schema from
 * GET /v1/games): integers with a small range and enums become choices, wider integers a stepper,
 * booleans a switch, consts a read-only line. Labels come from the schema when it speaks Chinese,
 * else from labels.ts. A choice the server says this caller cannot open a room with (`x-locked`: a
 * 宫斗杀 stage her 妃子 has not unlocked) carries its reason, to be greyed; the server's check at 开房
 * stays the word.
 */
import { ENUM_LABEL, hasCjk, OPTION_LABEL } from './labels'

type Json = Record<string, unknown>

export interface Choice {
  value: string | number
  label: string
  /** The server's reason this caller cannot open a room with this choice (absent: open to her). */
  locked?: string
}

export type Field =
  | { kind: 'choice'; name: string; label: string; hint?: string; choices: Choice[]; default: string | number }
  | { kind: 'number'; name: string; label: string; hint?: string; min: number; max: number; step: number; default: number }
  | { kind: 'toggle'; name: string; label: string; hint?: string; default: boolean }
  | { kind: 'fixed'; name: string; label: string; hint?: string; value: string }

function resolve(schema: Json, prop: Json): Json {
  const ref = prop.$ref
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const defs = (schema.$defs ?? {}) as Record<string, Json>
    const target = defs[ref.slice('#/$defs/'.length)] ?? {}
    return { ...target, ...prop }
  }
  const anyOf = prop.anyOf ?? prop.oneOf
  if (Array.isArray(anyOf)) {
    const first = (anyOf as Json[]).find((p) => p.type !== 'null')
    if (first) return { ...resolve(schema, first), ...prop }
  }
  return prop
}

function labelOf(name: string, prop: Json): string {
  if (typeof prop.title === 'string' && hasCjk(prop.title)) return prop.title
  return OPTION_LABEL[name] ?? (typeof prop.title === 'string' ? prop.title : name)
}

function hintOf(prop: Json): string | undefined {
  return typeof prop.description === 'string' && hasCjk(prop.description) ? prop.description : undefined
}

/** A choice's name: the server's own (`x-labels`, e.g. a stage with its opponent) before labels.ts. */
function enumLabel(name: string, value: string | number, prop: Json = {}): string {
  const own = (prop['x-labels'] ?? {}) as Record<string, unknown>
  const said = own[String(value)]
  return typeof said === 'string' && said ? said : ENUM_LABEL[name]?.[String(value)] ?? String(value)
}

/** The server's reason a choice is locked for this caller (`x-locked`), or undefined. */
function lockOf(value: string | number, prop: Json): string | undefined {
  const locked = (prop['x-locked'] ?? {}) as Record<string, unknown>
  const said = locked[String(value)]
  return typeof said === 'string' && said ? said : undefined
}

function choiceOf(name: string, value: string | number, prop: Json): Choice {
  const locked = lockOf(value, prop)
  return locked ? { value, label: enumLabel(name, value, prop), locked } : { value, label: enumLabel(name, value, prop) }
}

/** The schema's default, or (when that one is locked for her) the first choice open to her. */
function openDefault(choices: Choice[], dflt: string | number): string | number {
  if (!choices.find((c) => c.value === dflt)?.locked) return dflt
  return choices.find((c) => !c.locked)?.value ?? dflt
}

export function fieldsOf(schema: Json): Field[] {
  const props = (schema.properties ?? {}) as Record<string, Json>
  const fields: Field[] = []
  for (const [name, raw] of Object.entries(props)) {
    const prop = resolve(schema, raw)
    const label = labelOf(name, prop)
    const hint = hintOf(prop)
    if ('const' in prop) {
      fields.push({ kind: 'fixed', name, label, hint, value: enumLabel(name, prop.const as string, prop) })
    } else if (Array.isArray(prop.enum)) {
      const values = prop.enum as (string | number)[]
      const choices = values.map((v) => choiceOf(name, v, prop))
      fields.push({ kind: 'choice', name, label, hint, choices, default: openDefault(choices, (prop.default as string | number | undefined) ?? values[0]) })
    } else if (prop.type === 'boolean') {
      fields.push({ kind: 'toggle', name, label, hint, default: Boolean(prop.default) })
    } else if (prop.type === 'integer' || prop.type === 'number') {
      const min = typeof prop.minimum === 'number' ? prop.minimum : 0
      const max = typeof prop.maximum === 'number' ? prop.maximum : min + 100
      const dflt = typeof prop.default === 'number' ? prop.default : min
      if (max - min <= 4) {
        const choices: Choice[] = []
        for (let v = min; v <= max; v++) choices.push(choiceOf(name, v, prop))
        fields.push({ kind: 'choice', name, label, hint, choices, default: openDefault(choices, dflt) })
      } else {
        const step = max - min >= 100 ? 5 : 1
        fields.push({ kind: 'number', name, label, hint, min, max, step, default: dflt })
      }
    }
  }
  return fields
}

export type OptionValues = Record<string, string | number | boolean>

export function defaultsOf(fields: Field[]): OptionValues {
  const out: OptionValues = {}
  for (const f of fields) if (f.kind !== 'fixed') out[f.name] = f.default
  return out
}

export function clampStep(f: Extract<Field, { kind: 'number' }>, value: number, delta: number): number {
  const next = value + delta
  return Math.max(f.min, Math.min(f.max, next))
}
