export * from "./reconcile-crypto-payment"
