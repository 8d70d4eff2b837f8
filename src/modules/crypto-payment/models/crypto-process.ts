import { model } from "@medusajs/framework/utils"

/**
 * The Medusa processes running on this database, each refreshing its row while it runs: how setup
 * health knows that several processes share the database (and so need a shared locking provider).
 */
const CryptoProcess = model
  .define("crypto_process", {
    id: model.id({ prefix: "cryptoproc" }).primaryKey(),
    host: model.text(),
    pid: model.number(),
    /** shared, server or worker (projectConfig.workerMode). */
    worker_mode: model.text(),
    /** The locking provider the process runs with, as its configuration names it. */
    locking: model.text(),
    seen_at: model.dateTime(),
  })
  .indexes([{ on: ["seen_at"] }])

export default CryptoProcess
