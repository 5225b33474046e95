/** Business constants of the product (spec §9), in one place and by name. */

export const SECONDS_PER_HOUR = 3600
export const SECONDS_PER_DAY = 86_400
export const NANO_PER_TON = 1_000_000_000
/**
 * The chain's coin as an amount or a price is labelled: Gram (GRAM) since the TON community's vote
 * (announced 2026-06-01; market data switched 2026-06-30). The network keeps its name: TON, TON
 * Connect, a TON wallet, a TON address. The unit is the same (1e9 nano-units, NANO_PER_TON).
 */
export const COIN = 'GRAM'
export const REWARD_DECIMALS = 10

export const API_BASE_PATH = '/api'
export const API_TIMEOUT_MS = 25_000
export const MAINTENANCE_POLL_MS = 10_000
export const MAINTENANCE_OFF_DETAIL = 'Maintenance mode is disabled'
/** What the backend answers (503) to any other call while it is under maintenance. */
export const MAINTENANCE_MSG = 'We are under maintenance'

export const PENDING_WINDOW_SECONDS = 3 * 60

export const VISIBILITY_REFETCH_MIN_MS = 10_000

export const WALLET_BALANCE_POLL_MS = 1_000
export const WALLET_BALANCE_POLL_TRIES = 30
export const TRANSACTION_VALIDITY_SECONDS = 60

export const TOAST_DURATION_MS = 3_000

export const SOCKET_RECONNECT_BASE_MS = 1_000
export const SOCKET_RECONNECT_FACTOR = 2
export const SOCKET_RECONNECT_MAX_DELAY_MS = 30_000
export const SOCKET_RECONNECT_MAX_ATTEMPTS = 1_000
export const SOCKET_RECONNECT_AFTER_EXHAUSTED_MS = 5_000
export const SOCKET_CONNECT_TIMEOUT_MS = 5_000
export const SOCKET_TOKEN_TIMEOUT_MS = 5_000
export const SOCKET_TOKEN_RETRY_MS = 1_000
/** How long the socket waits for the session refresh after the server refused its token (spec §9). */
export const SOCKET_TOKEN_REFRESH_TIMEOUT_MS = 5_000
export const SOCKET_SEND_RETRY_TIMES = 15
export const SOCKET_SEND_RETRY_MS = 2_000
export const SOCKET_SHORT_REFRESH_MS = 1_000
export const MAIN_SOCKET_PATH = '/api/ws/'
export const CANDLE_SOCKET_PATH = '/api/ws/candles'

export const DEFAULT_PAGE = 1
export const DEFAULT_PAGE_LIMIT = 300
export const HISTORY_PAGE_SIZE = 10
export const DEFAULT_SORT_ORDER = 'desc'
export const WITHDRAW_HISTORY_SORT_BY = 'created_at'

export const WALLET_RESTORE_TIMEOUT_MS = 12_000
export const WALLET_RESTORE_RETRY_MS = 2_000
export const WALLET_NOTIFICATIONS = ['before', 'success', 'error'] as const
export const WALLET_RETURN_STRATEGY = 'back'

export const UI_MOBILE_BREAKPOINT_PX = 440
export const MODAL_ANIMATION_DESKTOP_MS = 100
export const MODAL_ANIMATION_MOBILE_MS = 200
export const SHORT_ADDRESS_HEAD = 4
export const SHORT_ADDRESS_TAIL = 4

/** Friendly-address tag bytes: 0x11 bounceable, 0x51 (81) non-bounceable, OR-ed with 0x80 (128) on testnet. */
export const ADDRESS_FLAG_BOUNCEABLE = 0x11
export const ADDRESS_FLAG_NON_BOUNCEABLE = 0x51
export const ADDRESS_FLAG_TEST = 0x80

/** Platform client versions that unlock features (spec §5). */
export const PLATFORM_DEFAULT_VERSION = '6.0'
export const PLATFORM_NATIVE_TELEGRAM_LINK_VERSION = '6.1'
export const PLATFORM_NATIVE_SHARE_VERSION = '8.0'
/** The client version that can ask the user to let the bot write to them (WebApp.requestWriteAccess). */
export const PLATFORM_WRITE_ACCESS_VERSION = '6.9'
export const PLATFORM_SHORT_LINK_HOST = 't.me'

/** The start-up colour of the mini app (spec §1): a light blue. */
export const APP_BACKGROUND_COLOR = '#e8f4ff'

export const CANDLE_INTERVALS = ['5m', '30m', '1h', '4h', '1d'] as const
export const DEFAULT_CANDLE_INTERVAL = '5m'
export const CANDLE_INTERVAL_SECONDS: Record<(typeof CANDLE_INTERVALS)[number], number> = {
  '5m': 300,
  '30m': 1_800,
  '1h': SECONDS_PER_HOUR,
  '4h': 4 * SECONDS_PER_HOUR,
  '1d': SECONDS_PER_DAY,
}

export const INVALID_INIT_DATA_MSG = 'Invalid WebApp init data'

/** How many candles a chart asks for. */
export const CANDLES_PER_CHART = 120
