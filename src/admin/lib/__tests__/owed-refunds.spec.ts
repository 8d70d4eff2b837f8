import { AdminCryptoRefundBasis } from "../../../api/admin/crypto/validators"
import { COIN_DECIMALS, COINS } from "../../../lib/crypto-api/constants"
import { REFUND_NETWORKS } from "../../../lib/domain/refund-address"
import { REFUND_BASES as SERVER_REFUND_BASES } from "../../../lib/domain/refund-basis"
import { translator } from "../../i18n/__tests__/messages"
import {
  actorLabel,
  basisFormDefaults,
  basisLabel,
  basisText,
  checkBasisForm,
  COIN_PLACES,
  coinsToSend,
  copyText,
  isConflict,
  linkExpired,
  linkToCopy,
  markSentBlocker,
  networkLabel,
  owedActions,
  owedAmountText,
  parseCoins,
  parseFeePercent,
  payoutBlocker,
  payoutPrompt,
  REFUND_BASES,
  REFUND_COINS,
  refundSentBody,
  refusalText,
} from "../owed-refunds"

const en = translator("en")
const de = translator("de")

describe("an owed record's address, network and actors in words", () => {
  it("knows every coin of the service, with its decimals (the admin keeps its own copy)", () => {
    expect([...REFUND_COINS].sort()).toEqual([...COINS].sort())
    expect(COIN_PLACES).toEqual(COIN_DECIMALS)
  })

  it("names each coin's network as the server does, in every language", () => {
    for (const coin of COINS) expect(networkLabel(en, coin)).toBe(REFUND_NETWORKS[coin].label)
    expect(networkLabel(en, "USDT_BEP20")).toBe("BNB Smart Chain (BEP-20)")
    expect(networkLabel(de, "LTC")).toBe("Litecoin")
  })

  it("shows a coin it does not know as its code, and none as a dash", () => {
    expect(networkLabel(en, "DOGE")).toBe("DOGE")
    expect(networkLabel(en, null)).toBe("—")
  })

  it("names the customer, and an admin by the name the server sent beside the user id", () => {
    expect(actorLabel(en, "customer", "customer")).toBe("the customer")
    expect(actorLabel(de, "customer", null)).toBe("Kunde")
    expect(actorLabel(en, "user_01ABC", "Ada Lovelace")).toBe("Ada Lovelace")
    expect(actorLabel(en, "user_01ABC", "ada@shop.test")).toBe("ada@shop.test")
    expect(actorLabel(en, null, null)).toBe("—")
  })

  it("names an admin by the user id when the server sent no name", () => {
    expect(actorLabel(en, "user_01ABC")).toBe("user_01ABC")
    expect(actorLabel(en, "user_01ABC", null)).toBe("user_01ABC")
  })
})

describe("the refund's basis", () => {
  it("offers the server's bases", () => {
    expect([...REFUND_BASES]).toEqual([...SERVER_REFUND_BASES])
  })

  it("names none chosen as the rate the payment was priced at", () => {
    expect(basisLabel(en, null)).toBe("Rate the payment was priced at (default)")
    expect(basisLabel(en, "rate_then")).toBe("Rate at payment")
    expect(basisLabel(en, "fixed_coins")).toBe("Fixed coins")
    expect(basisLabel(de, "fixed_coins")).toBe("Feste Coin-Menge")
    expect(basisLabel(en, "some_new_basis")).toBe("some_new_basis")
  })

  const chosen = {
    basis: "fixed_coins",
    fee_percent: "1.5",
    basis_chosen_by: "user_1",
    basis_chosen_by_name: "Ada Lovelace",
    basis_chosen_at: "2026-11-02T10:45:00.000Z",
  }

  it("says the basis, its fee, who chose it (by name) and when", () => {
    const text = basisText(en, "en", chosen)
    expect(text).toMatch(/^Fixed coins · fee 1\.5% · chosen by Ada Lovelace on /)
    expect(text).toContain("2026")
  })

  it("leaves out a fee of 0 and a choice nobody made", () => {
    expect(basisText(en, "en", { ...chosen, fee_percent: "0" })).not.toContain("fee")
    expect(
      basisText(en, "en", {
        basis: null,
        fee_percent: null,
        basis_chosen_by: null,
        basis_chosen_by_name: null,
        basis_chosen_at: null,
      })
    ).toBe("Rate the payment was priced at (default)")
  })
})

describe("the coins typed for a fixed-coins refund", () => {
  it.each([
    ["0.0051", "BTC", "0.0051"],
    [" 1 ", "LTC", "1"],
    ["0,0051", "BTC", "0.0051"],
    ["0.12345678", "BTC", "0.12345678"],
    ["0.123456789012345678", "ETH", "0.123456789012345678"],
    ["0.123456789", null, "0.123456789"],
  ])("reads %j in %s as %j", (text, coin, coins) => {
    expect(parseCoins(text, coin)).toBe(coins)
  })

  it.each([
    ["nothing", "", "BTC"],
    ["zero", "0", "BTC"],
    ["zero with decimals", "0.000", "BTC"],
    ["a negative amount", "-1", "BTC"],
    ["more decimals than the coin has", "0.123456789", "BTC"],
    ["an exponent", "1e-3", "BTC"],
    ["text", "some", "BTC"],
    ["a thousands separator", "1,000.5", "BTC"],
  ])("refuses %s", (_, text, coin) => {
    expect(parseCoins(text, coin)).toBeNull()
  })
})

describe("the fee typed", () => {
  it.each([
    ["", undefined],
    ["  ", undefined],
    ["0", "0"],
    ["1.5", "1.5"],
    ["1,25", "1.25"],
    ["100", "100"],
    ["100.00", "100.00"],
  ])("reads %j as %j", (text, fee) => {
    expect(parseFeePercent(text)).toBe(fee)
  })

  it.each([["100.01"], ["101"], ["1.255"], ["-1"], ["1e1"], ["ten"], ["1000"]])("refuses %j", (text) => {
    expect(parseFeePercent(text)).toBeNull()
  })
})

describe("the basis form", () => {
  it("opens on the record's choice, the rate at payment when none was made", () => {
    expect(basisFormDefaults({ basis: null, coin_amount: "0.3", fee_percent: null })).toEqual({
      basis: "rate_then",
      coins: "",
      fee: "",
    })
    expect(basisFormDefaults({ basis: "fixed_coins", coin_amount: "0.2", fee_percent: "1.5" })).toEqual({
      basis: "fixed_coins",
      coins: "0.2",
      fee: "1.5",
    })
  })

  it.each([
    ["the rate at payment alone", { basis: "rate_then", coins: "9", fee: "" }, { basis: "rate_then" }],
    [
      "the rate at payment with a fee",
      { basis: "rate_then", coins: "", fee: "1,5" },
      { basis: "rate_then", fee_percent: "1.5" },
    ],
    [
      "fixed coins with a fee",
      { basis: "fixed_coins", coins: "0.0051", fee: "2" },
      { basis: "fixed_coins", coins: "0.0051", fee_percent: "2" },
    ],
    ["fixed coins alone", { basis: "fixed_coins", coins: "0,5", fee: "" }, { basis: "fixed_coins", coins: "0.5" }],
  ] as const)("posts %s", (_, values, body) => {
    const check = checkBasisForm(values, "BTC")
    expect(check).toEqual({ body, errors: {} })
    // what the server's validator takes
    expect(AdminCryptoRefundBasis.parse(check.body)).toEqual(body)
  })

  it("posts nothing, and says nothing, while fixed coins are not typed yet", () => {
    expect(checkBasisForm({ basis: "fixed_coins", coins: " ", fee: "" }, "BTC")).toEqual({ body: null, errors: {} })
  })

  it("says why typed coins or a typed fee cannot be sent", () => {
    const check = checkBasisForm({ basis: "fixed_coins", coins: "0.123456789", fee: "150" }, "BTC")
    expect(check.body).toBeNull()
    expect(check.errors).toEqual({
      coins: { key: "owed.basisForm.coinsInvalid", values: { places: 8 } },
      fee: { key: "owed.basisForm.feeInvalid" },
    })
    expect(en(check.errors.coins!.key, check.errors.coins!.values)).toBe(
      "Enter the coins as a number above 0 with at most 8 decimals, like 0.0051."
    )
    expect(checkBasisForm({ basis: "rate_then", coins: "", fee: "x" }, "BTC").body).toBeNull()
  })
})

describe("which of a record's actions apply", () => {
  const open = { sent_at: null, refund_address: null, payout_started_at: null }
  const given = { ...open, refund_address: "ltc1qexample" }

  it("offers the link and the basis while the coins are not sent; the payout once an address is given", () => {
    expect(owedActions(open)).toEqual({ copyLink: true, renewLink: true, chooseBasis: true, startPayout: false })
    expect(owedActions(given)).toEqual({ copyLink: true, renewLink: true, chooseBasis: true, startPayout: true })
    expect(payoutBlocker(open)).toBe("owed.payout.needsAddress")
    expect(payoutBlocker(given)).toBeNull()
  })

  it("starts the payout only once", () => {
    const started = { ...given, payout_started_at: "2026-11-02T10:50:00.000Z" }
    expect(owedActions(started).startPayout).toBe(false)
    expect(owedActions(started).chooseBasis).toBe(true)
    expect(payoutBlocker(started)).toBe("owed.payout.alreadyStarted")
  })

  it("offers nothing once the coins were sent", () => {
    const sent = { ...given, payout_started_at: "2026-11-02T10:50:00.000Z", sent_at: "2026-11-02T11:00:00.000Z" }
    expect(owedActions(sent)).toEqual({ copyLink: false, renewLink: false, chooseBasis: false, startPayout: false })
    expect(payoutBlocker(sent)).toBe("owed.payout.alreadySent")
  })
})

describe("the payout's confirmation", () => {
  const address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
  const record = {
    coin: "BTC",
    coin_amount: "0.0099",
    base_amount: "420.00",
    base_currency: "EUR",
    refund_address: address,
    refund_coin: "BTC",
  }

  it("shows the coins, the address in full and the network it freezes", () => {
    expect(payoutPrompt(en, "en", record, "BTC")).toEqual({
      title: "Start the payout?",
      description: `Start the payout of 0.0099 BTC to ${address} (Bitcoin)? The customer can no longer change this address.`,
    })
    expect(payoutPrompt(de, "de", { ...record, coin: "USDT_ERC20", refund_coin: "USDT_ERC20" }, null).description).toBe(
      `Auszahlung von 0,0099 USDT_ERC20 an ${address} (Ethereum (ERC-20)) starten? Der Kunde kann diese Adresse danach nicht mehr ändern.`
    )
  })

  it("leaves the coins out while they are not worked out", () => {
    expect(payoutPrompt(en, "en", { ...record, coin_amount: null }, "BTC").description).toBe(
      `Start the payout to ${address} (Bitcoin)? The customer can no longer change this address.`
    )
  })

  it("words a record's coins, else about its base amount", () => {
    expect(owedAmountText("en", record, null)).toBe("0.0099 BTC")
    expect(owedAmountText("en", { ...record, coin: null }, "LTC")).toBe("0.0099 LTC")
    expect(owedAmountText("de", { ...record, coin_amount: null }, "BTC")).toBe("≈ 420,00 EUR")
  })

  it("shows the coins as a wallet sends them, the figure the payout asks to send", () => {
    const eth = {
      ...record,
      coin: "ETH",
      refund_coin: "ETH",
      refund_address: "0x52908400098527886E0F7030069857D2E4169EE7",
      coin_amount: "0.003336413333333333",
      coin_amount_sendable: "0.00333641",
    }
    expect(owedAmountText("en", eth, null)).toBe("0.00333641 ETH")
    expect(owedAmountText("de", eth, null)).toBe("0,00333641 ETH")
    expect(payoutPrompt(en, "en", eth, null).description).toBe(
      `Start the payout of 0.00333641 ETH to ${eth.refund_address} (Ethereum)? The customer can no longer change this address.`
    )
  })
})

describe("coins owed as a wallet sends them, and the exact ones", () => {
  it.each<[string | null, string | null | undefined, ReturnType<typeof coinsToSend>]>([
    ["0.003336413333333333", "0.00333641", { send: "0.00333641", exact: "0.003336413333333333" }],
    ["12.345678901234567891", "12.345678", { send: "12.345678", exact: "12.345678901234567891" }],
    // the same figure written otherwise has no exact one to reveal
    ["0.0099", "0.00990000", { send: "0.00990000", exact: null }],
    ["0.00990000", "0.00990000", { send: "0.00990000", exact: null }],
    // a server that sends no such figure: the exact coins
    ["0.003336413333333333", undefined, { send: "0.003336413333333333", exact: null }],
    ["0.003336413333333333", null, { send: "0.003336413333333333", exact: null }],
    [null, null, null],
  ])("%s (sendable %s)", (exact, sendable, shown) => {
    expect(coinsToSend(exact, sendable)).toEqual(shown)
  })
})

describe("marking what is owed now as sent", () => {
  const open = { id: "rec_open", coin_amount: "0.0099", sent_at: null, refund_address: null, payout_started_at: null }
  const sent = { ...open, id: "rec_sent", sent_at: "2026-11-02T11:00:00.000Z" }
  const paidOut = {
    ...open,
    id: "rec_paid_out",
    coin_amount: "0.05",
    refund_address: "ltc1qexample",
    payout_started_at: "2026-11-02T10:50:00.000Z",
  }
  const given = { ...open, id: "rec_given", refund_address: "ltc1qexample" }

  it("names the open records the admin saw in owed now with the coins shown, and the reference if one was typed", () => {
    expect(refundSentBody([open, sent, paidOut], "  tx-1 ")).toEqual({
      owed: [
        { id: "rec_open", coin_amount: "0.0099" },
        { id: "rec_paid_out", coin_amount: "0.05" },
      ],
      reference: "tx-1",
    })
    expect(refundSentBody([{ ...open, coin_amount: null }], "  ")).toEqual({
      owed: [{ id: "rec_open", coin_amount: null }],
    })
  })

  it("waits for the payout of every open record the customer gave an address for", () => {
    expect(markSentBlocker([open, sent, paidOut])).toBeNull()
    expect(markSentBlocker([open, given])).toBe("owed.markSentNeedsPayout")
    expect(markSentBlocker([{ ...given, sent_at: "2026-11-02T11:00:00.000Z" }])).toBeNull()
  })

  it("shows a refusal in the server's words, and after a conflict says the payment was read again", () => {
    const conflict = Object.assign(new Error("rec_open was marked sent meanwhile."), { status: 409 })
    const notAllowed = Object.assign(new Error("Start the payout first."), { status: 400 })
    expect(isConflict(conflict)).toBe(true)
    expect(isConflict(notAllowed)).toBe(false)
    expect(isConflict(null)).toBe(false)
    expect(refusalText(en, conflict)).toBe(
      "rec_open was marked sent meanwhile. The payment was read again: check what it shows now and try again."
    )
    expect(refusalText(en, notAllowed)).toBe("Start the payout first.")
  })
})

describe("the customer's link", () => {
  const link = {
    token: "cryptoowed_1.sig",
    path: "/crypto-refund/cryptoowed_1.sig",
    expires_at: "2026-12-02T10:00:00.000Z",
  }

  it("copies the URL, or the path when the storefront's URL is not configured", () => {
    expect(linkToCopy({ ...link, url: "https://shop.test/crypto-refund/cryptoowed_1.sig" })).toEqual({
      text: "https://shop.test/crypto-refund/cryptoowed_1.sig",
      storefrontMissing: false,
    })
    expect(linkToCopy({ ...link, url: null })).toEqual({ text: link.path, storefrontMissing: true })
  })

  it("has expired from its expiry on", () => {
    const at = new Date("2026-12-02T10:00:00.000Z")
    expect(linkExpired(link.expires_at, new Date(at.getTime() - 1))).toBe(false)
    expect(linkExpired(link.expires_at, at)).toBe(true)
  })

  it("is put on the clipboard, or shown to copy by hand when there is none or the browser refuses", async () => {
    const written: string[] = []
    expect(await copyText("https://shop.test/x", { writeText: async (text) => void written.push(text) })).toBe(true)
    expect(written).toEqual(["https://shop.test/x"])
    expect(await copyText("x", null)).toBe(false)
    expect(await copyText("x", { writeText: () => Promise.reject(new Error("NotAllowedError")) })).toBe(false)
  })
})
