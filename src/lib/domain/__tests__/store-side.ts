import type { StoreSideState } from "../decision-terms"

/** The Medusa side of a session's own payment, current and open, for a 25 USD cart (the decision tests' start). */
export const ownSession: StoreSideState = {
  current: true,
  sessionOpen: true,
  targetSessionId: "payses_1",
  capturedByThis: false,
  paidByOther: false,
  covers: true,
  orderCollection: false,
  base: { amount: "25.00", currency: "USD" },
  takenBase: "25.00",
}
