import { API_KEY_CHANGE_NOTICE_DAYS, apiKeyChangeCheck, type ApiKeyChange } from "../api-key-change"
import { apiKeyFingerprint, apiKeyStateOf } from "../../domain/api-key-state"
import type { Acknowledgement, AcknowledgedHow } from "../../domain/acknowledgement"

const CONFIG_KEY = "sk_live_from_medusa_config_1111"
const ADMIN_KEY = "sk_live_saved_from_the_admin_7Q9Z"
const NEW_CONFIG_KEY = "sk_live_put_in_the_environment_C0DE"
const NOW = new Date("2026-12-07T12:00:00.000Z")
const providerId = "pp_crypto_crypto"

const configState = (config = CONFIG_KEY) => apiKeyStateOf({ source: "option", inUse: config, config })
const adminState = (config = CONFIG_KEY) => apiKeyStateOf({ source: "admin", inUse: ADMIN_KEY, config })

const acknowledgement = (
  state: ReturnType<typeof apiKeyStateOf>,
  how: AcknowledgedHow,
  over: Partial<Acknowledgement & { actor_email: string | null }> = {}
) => ({
  ...state,
  provider_id: providerId,
  subject: "api_key" as const,
  how,
  actor_id: how === "first_sight" ? null : "user_1",
  actor_email: how === "first_sight" ? null : "ops@shop.test",
  created_at: "2026-12-07T10:15:00.000Z",
  ...over,
})

const saved = (over: Partial<ApiKeyChange> = {}): ApiKeyChange => ({
  provider_id: providerId,
  from: null,
  to: "…7Q9Z",
  actor_id: "user_1",
  actor_email: "ops@shop.test",
  created_at: "2026-12-07T10:15:00.000Z",
  ...over,
})

describe("the API key state", () => {
  it("tells keys apart by a fingerprint that gives neither key back, and says which is in use by its last four", () => {
    const state = adminState()
    expect(state.facts).toEqual({ source: "admin", in_use: "…7Q9Z", config: "…1111" })
    expect(state.value).toBe(`admin:${apiKeyFingerprint(ADMIN_KEY)}:${apiKeyFingerprint(CONFIG_KEY)}`)
    expect(state.value).not.toContain(ADMIN_KEY.slice(0, 8))
    expect(apiKeyFingerprint(ADMIN_KEY)).toMatch(/^[0-9a-f]{16}$/)
    expect(adminState().value).not.toBe(adminState(NEW_CONFIG_KEY).value)
    expect(configState().value).not.toBe(configState(NEW_CONFIG_KEY).value)
  })
})

describe("the API key change line of the setup health", () => {
  it("says nothing while the key is the one first seen and nobody changed it", () => {
    expect(
      apiKeyChangeCheck({
        providerId,
        state: configState(),
        acknowledged: acknowledgement(configState(), "first_sight"),
        changes: [],
        now: NOW,
      })
    ).toBeUndefined()
  })

  it("is green for a key an admin saved signed in to the dashboard: when, by whom, acknowledged by the save", () => {
    const line = apiKeyChangeCheck({
      providerId,
      state: adminState(),
      acknowledged: acknowledgement(adminState(), "saved"),
      changes: [saved(), saved({ to: "…1111", from: "…AAAA", created_at: "2026-12-05T09:00:00.000Z" })],
      now: NOW,
    })
    expect(line).toEqual({
      id: "api_key_change",
      provider_id: providerId,
      label: "API key change",
      level: "green",
      detail: `API key changed from the admin at 2026-12-07T10:15:00.000Z by ops@shop.test (now …7Q9Z, was medusa-config's); 1 earlier change in the last ${API_KEY_CHANGE_NOTICE_DAYS} days; acknowledged by ops@shop.test, who saved it.`,
      at: "2026-12-07T10:15:00.000Z",
      acknowledged: { by: "ops@shop.test", at: "2026-12-07T10:15:00.000Z", how: "saved" },
    })
  })

  it("waits for an acknowledgement when the key was saved without one (a secret API key's call), then turns green", () => {
    const waiting = apiKeyChangeCheck({
      providerId,
      state: adminState(),
      acknowledged: acknowledgement(configState(), "first_sight"),
      changes: [saved({ actor_id: "apk_01", actor_email: null })],
      now: NOW,
    })
    expect(waiting).toMatchObject({
      level: "amber",
      detail:
        "API key changed from the admin at 2026-12-07T10:15:00.000Z by apk_01 (now …7Q9Z, was medusa-config's); not acknowledged yet.",
      action: expect.stringMatching(
        /^If it was made on purpose, acknowledge it\. If nobody on your team made it, revoke/
      ),
      at: "2026-12-07T10:15:00.000Z",
      acknowledge: { subject: "api_key", value: adminState().value },
    })
    const acknowledged = apiKeyChangeCheck({
      providerId,
      state: adminState(),
      acknowledged: acknowledgement(adminState(), "acknowledged", { created_at: "2026-12-07T11:00:00.000Z" }),
      changes: [saved({ actor_id: "apk_01", actor_email: null })],
      now: NOW,
    })
    expect(acknowledged).toMatchObject({
      level: "green",
      detail:
        "API key changed from the admin at 2026-12-07T10:15:00.000Z by apk_01 (now …7Q9Z, was medusa-config's); acknowledged by ops@shop.test at 2026-12-07T11:00:00.000Z.",
      acknowledged: { by: "ops@shop.test", at: "2026-12-07T11:00:00.000Z", how: "acknowledged" },
    })
    expect(acknowledged?.acknowledge).toBeUndefined()
  })

  it("warns when medusa-config's key changed outside the admin, until acknowledged; green for the notice days after", () => {
    const changed = configState(NEW_CONFIG_KEY)
    const line = apiKeyChangeCheck({
      providerId,
      state: changed,
      acknowledged: acknowledgement(configState(), "first_sight"),
      changes: [],
      now: NOW,
    })
    expect(line).toMatchObject({
      level: "amber",
      detail: "The API key in medusa-config.ts changed outside the admin (now …C0DE, was …1111).",
      action: expect.stringMatching(/^If your team changed the key on purpose .*, acknowledge it\./),
      acknowledge: { subject: "api_key", value: changed.value },
    })
    const after = (days: number) =>
      apiKeyChangeCheck({
        providerId,
        state: changed,
        acknowledged: acknowledgement(changed, "acknowledged"),
        changes: [],
        now: new Date(Date.parse("2026-12-07T10:15:00.000Z") + days * 86_400_000),
      })
    expect(after(1)).toMatchObject({
      level: "green",
      detail: "API key in use: …C0DE from medusa-config.ts; acknowledged by ops@shop.test at 2026-12-07T10:15:00.000Z.",
      acknowledged: { by: "ops@shop.test", how: "acknowledged" },
    })
    expect(after(API_KEY_CHANGE_NOTICE_DAYS)).toBeUndefined()
  })

  it("warns when medusa-config's key changed while a key saved from the admin wins: the new one is not used", () => {
    const line = apiKeyChangeCheck({
      providerId,
      state: adminState(NEW_CONFIG_KEY),
      acknowledged: acknowledgement(adminState(), "saved", { created_at: "2026-11-01T00:00:00.000Z" }),
      changes: [],
      now: NOW,
    })
    expect(line).toMatchObject({
      level: "amber",
      detail:
        "medusa-config's API key changed (now …C0DE, was …1111), but the key saved from the admin (…7Q9Z) is the one in use: medusa-config's is not used.",
      action: expect.stringMatching(/^To use medusa-config's new key, save it on the Keys panel/),
    })
  })

  it("warns when medusa-config's key is back in use instead of the one saved from the admin", () => {
    const line = apiKeyChangeCheck({
      providerId,
      state: configState(),
      acknowledged: acknowledgement(adminState(), "saved"),
      changes: [],
      now: NOW,
    })
    expect(line).toMatchObject({
      level: "amber",
      detail: "The API key in use is medusa-config's (…1111) again, no longer the one saved from the admin (…7Q9Z).",
    })
  })

  it("names an admin without email by id, and an unknown one as such", () => {
    const line = (change: ApiKeyChange) =>
      apiKeyChangeCheck({
        providerId,
        state: adminState(),
        acknowledged: acknowledgement(adminState(), "saved"),
        changes: [change],
        now: NOW,
      })?.detail
    expect(line(saved({ actor_email: null }))).toContain("by user_1 (now …7Q9Z, was medusa-config's);")
    expect(line(saved({ actor_id: null, actor_email: null }))).toContain("by an unknown admin")
  })
})
