import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CashSolid } from "@medusajs/icons"
import { Balances } from "../../components/balances"
import { PaymentPolicyPanel } from "../../components/crypto-settings"
import { ExportCsv } from "../../components/export-csv"
import { PaymentsList } from "../../components/payments-list"
import { SetupHealthPanel } from "../../components/setup-health"

/**
 * "Crypto payments" in the sidebar: whether the setup works, balances and limits at the service, the payments
 * that need a look, their export for the accountant, and the payment policy (short and late payments).
 */
const CryptoPaymentsPage = () => (
  <div className="flex flex-col gap-y-3">
    <SetupHealthPanel />
    <Balances />
    <PaymentsList />
    <ExportCsv />
    <PaymentPolicyPanel />
  </div>
)

// the label is a key of the plugin's texts; the build reads `translationNs` from this literal (I18N_NAMESPACE)
export const config = defineRouteConfig({ label: "route.label", translationNs: "cryptoPayments", icon: CashSolid })

export default CryptoPaymentsPage
