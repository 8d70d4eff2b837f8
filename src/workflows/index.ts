export * from "./reconcile-crypto-payment"
export * from "./apply-crypto-notification"
