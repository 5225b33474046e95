import type { Database } from 'better-sqlite3'
import { TOTALS_POSTGRES, TOTALS_SQLITE } from './totals-migration.ts'

/**
 * One step: SQL both engines take (PostgreSQL's through `postgresStep`), or each engine's own text
 * where they differ (triggers).
 */
export type Migration = string | { readonly sqlite: string; readonly postgres: string }

/** Each entry moves the schema one version up; never edit a shipped entry, append a new one. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    telegram_id INTEGER NOT NULL UNIQUE,
    name TEXT NOT NULL,
    ref_code TEXT NOT NULL UNIQUE,
    referrer_id INTEGER REFERENCES users(id),
    community INTEGER NOT NULL DEFAULT 0,
    balance_token INTEGER NOT NULL DEFAULT 0 CHECK (balance_token >= 0),
    task_balance INTEGER NOT NULL DEFAULT 0 CHECK (task_balance >= 0),
    referral_balance INTEGER NOT NULL DEFAULT 0 CHECK (referral_balance >= 0),
    hold_bonus INTEGER NOT NULL DEFAULT 0,
    investment_bonus INTEGER NOT NULL DEFAULT 0,
    turnover INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX users_referrer ON users(referrer_id);
  CREATE TABLE refresh_tokens (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    family TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    revoked INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX refresh_family ON refresh_tokens(family);
  CREATE TABLE mints (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    status TEXT NOT NULL,
    source TEXT NOT NULL,
    link_id INTEGER,
    created_at INTEGER NOT NULL,
    activated_at INTEGER,
    ends_at INTEGER,
    last_updated_at INTEGER,
    total_amount INTEGER NOT NULL,
    daily_reward INTEGER NOT NULL,
    hold_bonus INTEGER NOT NULL,
    collective_bonus INTEGER NOT NULL,
    investment_bonus INTEGER NOT NULL,
    earned_reward INTEGER NOT NULL DEFAULT 0,
    max_reward INTEGER NOT NULL,
    amount_ton INTEGER NOT NULL,
    tariff_days INTEGER NOT NULL,
    paid_nano INTEGER,
    penalty INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX mints_user ON mints(user_id, id);
  CREATE INDEX mints_status ON mints(status);
  CREATE TABLE stakes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    mint_id INTEGER NOT NULL UNIQUE REFERENCES mints(id),
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    activated_at INTEGER,
    ends_at INTEGER,
    last_updated_at INTEGER,
    total_amount INTEGER NOT NULL,
    daily_reward INTEGER NOT NULL,
    hold_bonus INTEGER NOT NULL,
    collective_bonus INTEGER NOT NULL,
    investment_bonus INTEGER NOT NULL,
    earned_reward INTEGER NOT NULL DEFAULT 0,
    max_reward INTEGER NOT NULL,
    amount_ton INTEGER NOT NULL,
    tariff_days INTEGER NOT NULL
  );
  CREATE INDEX stakes_user ON stakes(user_id, id);
  CREATE INDEX stakes_status ON stakes(status);
  CREATE TABLE farming_links (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    activation_code TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL,
    days INTEGER NOT NULL,
    daily_reward INTEGER NOT NULL,
    count_activations INTEGER NOT NULL,
    used_activations INTEGER NOT NULL DEFAULT 0,
    from_ref_balance INTEGER NOT NULL,
    from_task_balance INTEGER NOT NULL,
    is_multilink INTEGER NOT NULL,
    is_for_me INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX farming_user ON farming_links(user_id, id);
  CREATE TABLE farming_activations (
    link_id INTEGER NOT NULL REFERENCES farming_links(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    mint_id INTEGER NOT NULL REFERENCES mints(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (link_id, user_id)
  );
  CREATE TABLE withdrawals (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    from_ref_balance INTEGER NOT NULL,
    token_amount INTEGER NOT NULL,
    fee INTEGER NOT NULL,
    net_amount INTEGER NOT NULL,
    amount_ton INTEGER NOT NULL,
    address TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX withdrawals_user ON withdrawals(user_id, created_at);
  CREATE TABLE operations (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    type TEXT NOT NULL,
    balance TEXT NOT NULL,
    amount INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    description TEXT NOT NULL
  );
  CREATE INDEX operations_user ON operations(user_id, id);
  CREATE TABLE task_progress (
    user_id INTEGER NOT NULL REFERENCES users(id),
    task_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, task_id)
  );
  CREATE TABLE idempotency (
    user_id INTEGER NOT NULL,
    route TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, route, key)
  );
  `,
  // 2: wallet binding by tonProof. The raw address ('0:<hex>') is the key: one wallet, one user.
  `
  ALTER TABLE users ADD COLUMN wallet_address TEXT;
  ALTER TABLE users ADD COLUMN wallet_network TEXT;
  ALTER TABLE users ADD COLUMN wallet_bound_at INTEGER;
  CREATE UNIQUE INDEX users_wallet_address ON users(wallet_address);
  CREATE TABLE ton_proof_spent (payload TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
  `,
  // 3: locked tokens (the welcome balance under the 'locked' policy): usable for bonds, never sold.
  // locked_nano is the part of balance_token, of a link's unused fund, or of a bond's or stake's
  // principal that is locked; it follows the tokens and comes back locked.
  `
  ALTER TABLE users ADD COLUMN locked_nano INTEGER NOT NULL DEFAULT 0 CHECK (locked_nano >= 0);
  ALTER TABLE farming_links ADD COLUMN locked_nano INTEGER NOT NULL DEFAULT 0 CHECK (locked_nano >= 0);
  ALTER TABLE mints ADD COLUMN locked_nano INTEGER NOT NULL DEFAULT 0 CHECK (locked_nano >= 0);
  ALTER TABLE stakes ADD COLUMN locked_nano INTEGER NOT NULL DEFAULT 0 CHECK (locked_nano >= 0);
  `,
  // 4: request counts per client and window, shared by the instances on one PostgreSQL
  // (server/db/rate-limit-table.ts); unlogged there (a count lost in a crash costs nothing).
  `
  CREATE TABLE rate_limit_hits (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at INTEGER NOT NULL);
  CREATE INDEX rate_limit_hits_reset ON rate_limit_hits(reset_at);
  `,
  // 5: how far a chain watcher has handled the treasury's transactions (server/domain/chain-cursor.ts):
  // the logical time and hash of the last one, moved in the same transaction as what it did.
  `
  CREATE TABLE chain_cursor (name TEXT PRIMARY KEY, lt INTEGER NOT NULL, tx_hash TEXT NOT NULL, updated_at INTEGER NOT NULL);
  `,
  // 6: the price production quotes (server/domain/recorded-price.ts): ticks an operator records.
  `
  CREATE TABLE price_ticks (at INTEGER NOT NULL PRIMARY KEY, price_nano INTEGER NOT NULL CHECK (price_nano > 0));
  `,
  // 7: the chain's side (server/chain/payment-rows.ts): each payment into the treasury decided once
  // (its transaction hash is the key), and the outgoing payments the treasury owes, sales and refunds
  // in one queue, each with the seqno, valid_until and message hash it was signed with.
  `
  CREATE TABLE chain_payments (
    tx_hash TEXT PRIMARY KEY, lt INTEGER NOT NULL, tx_now INTEGER NOT NULL, source TEXT NOT NULL,
    amount_nano INTEGER NOT NULL, comment TEXT, mint_id INTEGER, outcome TEXT NOT NULL, reason TEXT,
    detail TEXT, overpaid_nano INTEGER, handled_at INTEGER NOT NULL
  );
  CREATE TABLE outgoing_payments (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL UNIQUE, withdrawal_id INTEGER,
    to_address TEXT NOT NULL, amount_nano INTEGER NOT NULL CHECK (amount_nano > 0), comment TEXT NOT NULL,
    state TEXT NOT NULL, seqno INTEGER, valid_until INTEGER, msg_hash TEXT, boc TEXT,
    failures INTEGER NOT NULL DEFAULT 0, last_error TEXT, paid_tx_hash TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  CREATE INDEX outgoing_payments_state ON outgoing_payments(state, id);
  CREATE INDEX outgoing_payments_msg ON outgoing_payments(msg_hash);
  `,
  // 8: Telegram (server/telegram/): the user's language (initData's language_code), whether they want
  // the bot's notifications and whether they blocked the bot; and the notification outbox, each row
  // written in the transaction of the change it tells about, sent by one instance.
  `
  ALTER TABLE users ADD COLUMN language TEXT;
  ALTER TABLE users ADD COLUMN notifications INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE users ADD COLUMN bot_blocked_at INTEGER;
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    done_at INTEGER,
    last_error TEXT
  );
  CREATE INDEX outbox_due ON outbox(state, next_at, id);
  `,
  // 9: the periodic pass finds only the positions whose term ended (status, ends_at; id for its
  // keyset), and the idempotency prune only the old keys; (status) alone is covered by the former.
  `
  CREATE INDEX mints_due ON mints(status, ends_at, id);
  CREATE INDEX stakes_due ON stakes(status, ends_at, id);
  DROP INDEX mints_status;
  DROP INDEX stakes_status;
  CREATE INDEX idempotency_created ON idempotency(created_at);
  `,
  // 10: the platform figures of /stats/financial as running totals (server/domain/platform-totals.ts).
  { sqlite: TOTALS_SQLITE, postgres: TOTALS_POSTGRES },
  // 11: a page of a user's referrals, newest first, read from the index in its order.
  `
  CREATE INDEX users_referrer_id ON users(referrer_id, id);
  DROP INDEX users_referrer;
  `,
  // 12: the chain time up to which a watcher has handled every transaction of an account
  // (server/domain/chain-cursor.ts): an unpaid bond is cancelled only once its payment window is
  // behind it, so a watcher that was down does not find a payment made in time on a cancelled bond.
  `
  CREATE TABLE chain_seen (name TEXT PRIMARY KEY, seen_until INTEGER NOT NULL, updated_at INTEGER NOT NULL);
  `,
  // 13: when a session signed in, on each of its refresh tokens: a session ends sessionMaxAgeS after
  // it, however often it was refreshed (server/auth/tokens.ts). A session of before this step began
  // 30 days (the refresh tokens' lifetime) before its first token's expiry. The periodic pass deletes
  // refresh tokens by their expiry.
  `
  ALTER TABLE refresh_tokens ADD COLUMN session_started_at INTEGER;
  UPDATE refresh_tokens SET session_started_at = (SELECT MIN(r.expires_at) FROM refresh_tokens r WHERE r.family = refresh_tokens.family) - 2592000;
  CREATE INDEX refresh_expiry ON refresh_tokens(expires_at);
  `,
  // 14: a sale over a payout limit is `held` for the operator (server/domain/sale-payouts.ts): why, and
  // when the operator approved it (an approved sale is not held again); the outgoing queue's payments
  // of the last hour read by their time.
  `
  ALTER TABLE withdrawals ADD COLUMN held_reason TEXT;
  ALTER TABLE withdrawals ADD COLUMN approved_at INTEGER;
  CREATE INDEX outgoing_payments_updated ON outgoing_payments(updated_at);
  `,
  // 15: a sale to an address its user has not proven with tonProof waits a cooling period
  // (AXIOM_NEW_ADDRESS_DELAY, server/domain/withdraw.ts): when it may join the payout queue (NULL: at
  // once, as every sale before this step), and when its user cancelled it from the bot's message.
  `
  ALTER TABLE withdrawals ADD COLUMN release_at INTEGER;
  ALTER TABLE withdrawals ADD COLUMN cancelled_at INTEGER;
  `,
  // 16: the payments into the treasury by the wallet they came from: a referred user's bond asks
  // whether its payer paid a bond of the referrer's own (server/domain/mints.ts, isWalletOf), which
  // without it reads every payment.
  `
  CREATE INDEX chain_payments_source ON chain_payments(source, outcome);
  `,
  // 17: the audit log (server/domain/audit.ts): money and security events and every admin command,
  // who did it and when, appended in the transaction of what it records; never changed or deleted
  // (a trigger refuses either, whoever asks).
  {
    sqlite: `
  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor TEXT NOT NULL, event TEXT NOT NULL, subject TEXT, detail TEXT NOT NULL
  );
  CREATE INDEX audit_log_event ON audit_log(event, id);
  CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  `,
    postgres: `
  CREATE TABLE audit_log (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL, event TEXT NOT NULL, subject TEXT, detail TEXT NOT NULL
  );
  CREATE INDEX audit_log_event ON audit_log(event, id);
  CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
  END $$;
  CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
  CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
  `,
  },
  // 18: each stored answer's expiry (server/db/idempotency-table.ts): the periodic pass deletes what
  // has expired, found on its own index, instead of reading every key older than a day to find the
  // few of them past their week (at a million users, 240 k row reads every 30 s that deleted nothing).
  `
  ALTER TABLE idempotency ADD COLUMN expires_at INTEGER;
  UPDATE idempotency SET expires_at = created_at + CASE WHEN key LIKE 'auto:%' THEN 86400 ELSE 604800 END;
  CREATE INDEX idempotency_expiry ON idempotency(expires_at);
  DROP INDEX idempotency_created;
  `,
  // 19: the operations history holds every money event of a user's, each in its unit: operations.unit
  // ('token', the app's coin, as every row before this step; or 'ton'), and rows that move none of the
  // user's balances (server/domain/ledger.ts, recordOperation: balance 'wallet' for the TON a bond
  // cost or a sale paid, 'none' for a stake or a bond from a link). Each bond's and stake's number
  // among its owner's (user_seq), written at its insert: a history page reads only its rows' numbers.
  // Rows of before this step are numbered by id, as the history numbered them.
  `
  ALTER TABLE operations ADD COLUMN unit TEXT NOT NULL DEFAULT 'token';
  ALTER TABLE mints ADD COLUMN user_seq INTEGER;
  ALTER TABLE stakes ADD COLUMN user_seq INTEGER;
  UPDATE mints SET user_seq = r.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS n FROM mints) AS r WHERE r.id = mints.id;
  UPDATE stakes SET user_seq = r.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY id) AS n FROM stakes) AS r WHERE r.id = stakes.id;
  CREATE UNIQUE INDEX mints_user_seq ON mints(user_id, user_seq);
  CREATE UNIQUE INDEX stakes_user_seq ON stakes(user_id, user_seq);
  `,
  // 20: a user's notices leave in the order they were written, also while one of them waits out a
  // failed send's back-off (server/telegram/outbox.ts): the due rows are read without those behind a
  // user's earlier pending one, found on this index.
  `
  CREATE INDEX outbox_user_pending ON outbox(user_id, state, id);
  `,
]

/** Tables whose rows may be lost in a crash: PostgreSQL keeps them out of its write-ahead log. */
const UNLOGGED_TABLES = ['rate_limit_hits']

/**
 * A step in PostgreSQL's words: the same tables, columns, keys and checks. Every integer is a
 * BIGINT (64 bits, as SQLite's INTEGER), and an `INTEGER PRIMARY KEY` (SQLite's rowid) an identity.
 */
export const postgresStep = (step: Migration): string => {
  if (typeof step !== 'string') return step.postgres
  const sqliteText = step
  return UNLOGGED_TABLES.reduce(
    (text, table) => text.replace(new RegExp(`\\bCREATE TABLE ${table}\\b`, 'g'), `CREATE UNLOGGED TABLE ${table}`),
    sqliteText.replace(/\bINTEGER PRIMARY KEY\b/g, 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY').replace(/\bINTEGER\b/g, 'BIGINT'),
  )
}

/** Brings a SQLite schema up to date inside one transaction per step; returns the version reached. */
export const migrate = (db: Database): number => {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: bigint | number | null }
  let version = row.v === null ? 0 : Number(row.v)
  for (; version < MIGRATIONS.length; version++) {
    const step = MIGRATIONS[version]!
    const sql = typeof step === 'string' ? step : step.sqlite
    db.transaction(() => {
      db.exec(sql)
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(version + 1)
    })()
  }
  return version
}
