import path from "node:path"
import axios, { AxiosInstance } from "axios"
import { databaseFromEnv, RunningStore, startDemoStore } from "../demo/store"
import { restock } from "../demo/checkout"

/**
 * The development store for a profile: the preload `preload` (a file of this folder) in every Node process, the
 * job out of the way (its interval an hour), the product restocked, and the service's webhooks off (they are the
 * script's to send). `api` is the storefront's client; `stop` stops everything the store started.
 */
export async function startProfiledStore(
  preload: string,
  env: NodeJS.ProcessEnv
): Promise<{ running: RunningStore; api: AxiosInstance; stop: () => Promise<void> }> {
  let stop: () => Promise<void> = async () => undefined
  try {
    const running = await startDemoStore({
      adminDashboard: false,
      say: () => undefined,
      onStop: (s) => (stop = s),
      env: {
        CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
        NODE_OPTIONS: `--require ${path.join(__dirname, preload)}`,
        ...env,
      },
      ...databaseFromEnv(),
    })
    await restock(running)
    await running.control.setWebhooks({ enabled: false })
    const api = axios.create({
      baseURL: running.backendUrl,
      headers: { "x-publishable-api-key": running.store.publishableKey },
    })
    return { running, api, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
