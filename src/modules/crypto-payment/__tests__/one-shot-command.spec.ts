import { isOneShotCommand } from "../one-shot-command"

describe("a one-shot Medusa command", () => {
  it.each<[string, string[], boolean]>([
    ["db:migrate", ["node", "/shop/node_modules/.bin/medusa", "db:migrate"], true],
    ["user with flags first", ["node", "/shop/node_modules/.bin/medusa", "user", "-e", "a@b.c"], true],
    ["exec", ["node", "/shop/node_modules/@medusajs/cli/cli.js", "exec", "./src/scripts/seed.ts"], true],
    ["plugin:add", ["node", "C:\\shop\\node_modules\\.bin\\medusa", "plugin:add", "x"], true],
    ["start", ["node", "/shop/node_modules/.bin/medusa", "start"], false],
    ["develop", ["node", "/shop/node_modules/.bin/medusa", "develop"], false],
    ["jest (integration tests)", ["node", "/repo/node_modules/.bin/jest", "db:migrate"], false],
    ["a script of the shop's own", ["node", "server.js"], false],
  ])("%s", (_, argv, expected) => {
    expect(isOneShotCommand(argv)).toBe(expected)
  })
})
