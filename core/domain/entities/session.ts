import { Schema } from 'effect'

/** `POST /auth/register` and `POST /auth/refresh` answer with a token pair (spec §3). */
export const TokenPair = Schema.Struct({ token: Schema.String, refresh: Schema.String })
export type TokenPair = typeof TokenPair.Type

/** The error body every failed call carries. */
export const ErrorBody = Schema.Struct({ msg: Schema.optional(Schema.String), detail: Schema.optional(Schema.Unknown) })

/** `POST /auth/register` (spec §7): the platform's raw init data and the referral code it carried. */
export const RegisterRequest = Schema.Struct({ init_data: Schema.String, ref_code: Schema.NullOr(Schema.String) })
export type RegisterRequest = typeof RegisterRequest.Type

