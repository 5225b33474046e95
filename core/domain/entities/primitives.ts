import { Schema, SchemaGetter } from 'effect'

/**
 * A token or TON amount on the wire. The reference backend sends exact decimal strings
 * (it keeps nano-units as integers); other producers may send JSON numbers. Both decode
 * to a finite number for display.
 */
export const Amount = Schema.Union([Schema.Finite, Schema.FiniteFromString])

/** A percentage (daily reward, bonuses). */
export const Percent = Amount

/** Unix time in seconds. */
export const UnixSeconds = Schema.Finite

/**
 * A record id in its one canonical form: a branded string. The wire may carry an id as a JSON
 * number (`12`) or a string (`"12"`); both decode to the same `Id` (`"12"`), so ids compare with
 * `===` and key a `Set`/`Map` directly. The brand keeps a plain string from passing for an id.
 * Encoding gives the string back; the HTTP adapter sends digit ids as numbers (`wireId`).
 */
const fromWire = <S extends Schema.Codec<string, string>>(branded: S) =>
  Schema.Union([Schema.Finite, Schema.String]).pipe(
    Schema.decodeTo(branded, {
      decode: SchemaGetter.transform((v: number | string) => String(v)),
      encode: SchemaGetter.transform((s: string) => s),
    }),
  )

export const Id = fromWire(Schema.String.pipe(Schema.brand('Id')))
export type Id = typeof Id.Type

/** The id of one entity: an `Id` with a second brand, so the compiler refuses a task id where a mint id is due. */
export const MintId = fromWire(Schema.String.pipe(Schema.brand('Id'), Schema.brand('MintId')))
export type MintId = typeof MintId.Type
export const StakeId = fromWire(Schema.String.pipe(Schema.brand('Id'), Schema.brand('StakeId')))
export type StakeId = typeof StakeId.Type
export const FarmingLinkId = fromWire(Schema.String.pipe(Schema.brand('Id'), Schema.brand('FarmingLinkId')))
export type FarmingLinkId = typeof FarmingLinkId.Type
export const TaskId = fromWire(Schema.String.pipe(Schema.brand('Id'), Schema.brand('TaskId')))
export type TaskId = typeof TaskId.Type

/** An id from an already-known value (a CLI argument, a test fixture), in the canonical form; `toId<MintId>(7)` for one entity's. */
export const toId = <I extends Id = Id>(v: number | string): I => String(v) as I

/** The id as the wire wants it in a body or query: digit ids as JSON numbers, others as-is. */
export const wireId = (id: Id): number | string => (/^\d{1,15}$/.test(id) ? Number(id) : id)

export const SortOrder = Schema.Literals(['asc', 'desc'])
export type SortOrder = typeof SortOrder.Type

/** A paged list as the API returns it: the items plus the total count. */
export const Paged = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    items: Schema.Array(item),
    total: Schema.Finite,
    page: Schema.optional(Schema.Finite),
    limit: Schema.optional(Schema.Finite),
  })

/** List paging (spec §3): page, limit (or size), sort_by, sort_order. */
export const ListPaging = Schema.Struct({
  page: Schema.optional(Schema.Finite),
  limit: Schema.optional(Schema.Finite),
  size: Schema.optional(Schema.Finite),
  sort_by: Schema.optional(Schema.String),
  sort_order: Schema.optional(SortOrder),
})
export type ListPaging = typeof ListPaging.Type

export interface PageQuery {
  readonly page?: number
  readonly limit?: number
  /** The page size under the name the history list is asked with (spec §7); the same as limit. */
  readonly size?: number
}
