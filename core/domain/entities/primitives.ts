import { Schema } from 'effect'

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

export const Id = Schema.Union([Schema.Finite, Schema.String])
export type Id = typeof Id.Type

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
