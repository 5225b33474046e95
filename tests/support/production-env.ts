/**
 * A complete production environment (NODE_ENV=production) that the backend's entry accepts, for a
 * mainnet treasury whose mnemonic and address the test made; each test then breaks or adds one thing.
 */
export const productionEnv = (
  key: { readonly words: ReadonlyArray<string>; readonly treasury: string; readonly jwtSecret: string },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  BOT_TOKEN: '8123456789:a-real-looking-bot-token',
  JWT_SECRET: key.jwtSecret,
  AXIOM_TON_NETWORK: 'mainnet',
  AXIOM_TON_API: 'https://mainnet-v4.tonhubapi.com',
  AXIOM_TON_API_CONFIRM: 'https://ton-v4.example.net',
  AXIOM_TREASURY: key.treasury,
  AXIOM_TREASURY_MNEMONIC: key.words.join(' '),
  AXIOM_COMMUNITY_CHAT: '@axiom_community',
  AXIOM_WELCOME_BALANCE: '0',
  AXIOM_TON_PROOF_DOMAINS: 'app.example.com',
  AXIOM_DB: 'postgres://axiom:pw@db.example.com:5432/axiom',
  AXIOM_APP_ORIGINS: 'https://app.example.com',
  ...extra,
})
