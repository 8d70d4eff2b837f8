/**
 * Medusa's one-shot commands (`medusa db:migrate`, `medusa user` …) run the start hooks as
 * MEDUSA_WORKER_MODE=server: checking the setup from one would log a false "workerMode is server" alarm.
 */
const ONE_SHOT = /^(db:|plugin:|user$|exec$)/

export function isOneShotCommand(argv: readonly string[] = process.argv): boolean {
  const [, script = "", ...rest] = argv
  if (!/(^|[\\/])medusa(\.js)?$|@medusajs[\\/](cli|medusa)[\\/]/.test(script)) return false
  const command = rest.find((arg) => !arg.startsWith("-"))
  return !!command && ONE_SHOT.test(command)
}
