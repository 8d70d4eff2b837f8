/**
 * The development store of this repository: a Medusa app that loads the plugin from ./src
 * (api routes, jobs, workflows, modules) and the crypto payment provider from
 * ./src/providers/crypto. Every option has a local default that points at the sandbox.
 */
import { defineConfig, loadEnv, Modules } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const env = process.env
const number = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value))

/**
 * CRYPTO_EXCHANGE_RATES: "false", or the option as JSON; else the ECB's rates, read from
 * CRYPTO_ECB_URL (the sandbox serves the file: tests and the demo run offline), from the local
 * sandbox's file when CRYPTO_BASE_URL is not set either, else from the ECB itself.
 */
function exchangeRates() {
  const given = env.CRYPTO_EXCHANGE_RATES?.trim()
  if (given === "false") return false
  if (given) return JSON.parse(given)
  const url = env.CRYPTO_ECB_URL || (env.CRYPTO_BASE_URL ? undefined : "http://127.0.0.1:4010/ecb/eurofxref-daily.xml")
  return url ? { source: "ecb", url } : undefined
}

const cryptoProviderOptions = {
  apiKey: env.CRYPTO_API_KEY ?? "sandbox_test_key",
  baseUrl: env.CRYPTO_BASE_URL ?? "http://127.0.0.1:4010",
  backendUrl: env.CRYPTO_BACKEND_URL ?? env.MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  webhookUrlField: env.CRYPTO_WEBHOOK_URL_FIELD || undefined,
  webhookSecret: env.CRYPTO_WEBHOOK_SECRET || undefined,
  /** Older secrets whose webhook URLs still verify during a rotation, comma-separated. */
  acceptedWebhookSecrets: env.CRYPTO_ACCEPTED_WEBHOOK_SECRETS?.split(",").filter(Boolean),
  mode: env.CRYPTO_MODE || undefined,
  defaultCoin: env.CRYPTO_DEFAULT_COIN || undefined,
  expirationMinutes: number(env.CRYPTO_EXPIRATION_MINUTES),
  placeOrder: env.CRYPTO_PLACE_ORDER || undefined,
  reconcileIntervalSeconds: number(env.CRYPTO_RECONCILE_INTERVAL_SECONDS),
  reconcileBatchSize: number(env.CRYPTO_RECONCILE_BATCH_SIZE),
  lateWindowHours: number(env.CRYPTO_LATE_WINDOW_HOURS),
  refunds: env.CRYPTO_REFUNDS || undefined,
  requestTimeoutMs: number(env.CRYPTO_REQUEST_TIMEOUT_MS),
  statusCacheSeconds: number(env.CRYPTO_STATUS_CACHE_SECONDS),
  quoteDriftAlertPercent: number(env.CRYPTO_QUOTE_DRIFT_ALERT_PERCENT),
  underpaymentTolerancePercent: number(env.CRYPTO_UNDERPAYMENT_TOLERANCE_PERCENT),
  latePayments: env.CRYPTO_LATE_PAYMENTS || undefined,
  exchangeRates: exchangeRates(),
}

/**
 * Several instances on one database (the reliability suite's R3): CRYPTO_LOCKING=redis (with REDIS_URL)
 * or postgres shares locks between them; MEDUSA_WORKER_MODE picks shared / server / worker.
 */
const lockingProvider =
  env.CRYPTO_LOCKING === "redis"
    ? {
        resolve: "@medusajs/medusa/locking-redis",
        id: "locking-redis",
        is_default: true,
        options: { redisUrl: env.REDIS_URL },
      }
    : env.CRYPTO_LOCKING === "postgres"
      ? { resolve: "@medusajs/medusa/locking-postgres", id: "locking-postgres", is_default: true }
      : undefined

/**
 * Medusa's production layout (docs/operations.md, "Deploying"; the reliability suite's R3):
 * CRYPTO_REDIS_MODULES=1 puts the event bus, the workflow engine and caching on Redis too (REDIS_URL),
 * beside Redis locking.
 */
const redisModules =
  env.CRYPTO_REDIS_MODULES === "1" && env.REDIS_URL
    ? [
        { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl: env.REDIS_URL } },
        { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl: env.REDIS_URL } } },
        {
          resolve: "@medusajs/medusa/caching",
          options: {
            providers: [
              {
                resolve: "@medusajs/medusa/caching-redis",
                id: "caching-redis",
                is_default: true,
                options: { redisUrl: env.REDIS_URL },
              },
            ],
          },
        },
      ]
    : []

/**
 * Customer emails (the plugin's `notifications` option) go through Medusa's Notification Module; here its
 * local provider serves "email" too, so the demo prints each email it would send. CRYPTO_NOTIFICATIONS=off
 * turns them off.
 */
const storefrontUrl = env.MEDUSA_STOREFRONT_URL || "http://localhost:8000"
const cryptoPluginOptions =
  env.CRYPTO_NOTIFICATIONS === "off" ? {} : { notifications: { channel: "email", storefrontUrl } }
const notificationModule = {
  resolve: "@medusajs/medusa/notification",
  options: {
    providers: [
      {
        resolve: "@medusajs/medusa/notification-local",
        id: "local",
        options: { name: "Local Notification Provider", channels: ["email", "feed"] },
      },
    ],
  },
}

/** `npm run bench` (P5) boots the store without the plugin's module and provider to compare: CRYPTO_PLUGIN=off. */
const withPlugin = env.CRYPTO_PLUGIN !== "off"

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env.DATABASE_URL,
    workerMode: (env.MEDUSA_WORKER_MODE as "shared" | "server" | "worker" | undefined) || "shared",
    ...(redisModules.length ? { redisUrl: env.REDIS_URL } : {}),
    http: {
      storeCors: env.STORE_CORS || "http://localhost:8000",
      adminCors: env.ADMIN_CORS || "http://localhost:9000,http://localhost:5173",
      authCors: env.AUTH_CORS || "http://localhost:8000,http://localhost:9000,http://localhost:5173",
      jwtSecret: env.JWT_SECRET || "supersecret",
      cookieSecret: env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: {
    disable: env.MEDUSA_ADMIN_DISABLED === "true",
    // the dashboard's "Copy payment link" builds `${storefrontUrl}/payment-collection/<id>?order_id=…`
    ...(env.MEDUSA_STOREFRONT_URL ? { storefrontUrl: env.MEDUSA_STOREFRONT_URL } : {}),
  },
  modules: [
    ...(withPlugin ? [{ resolve: "./src/modules/crypto-payment", options: cryptoPluginOptions }] : []),
    notificationModule,
    ...(lockingProvider ? [{ resolve: "@medusajs/medusa/locking", options: { providers: [lockingProvider] } }] : []),
    ...redisModules,
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: withPlugin
          ? [{ resolve: "./src/providers/crypto", id: "crypto", options: cryptoProviderOptions }]
          : [],
      },
    },
  ],
})
