import QRCode from "qrcode"

/** The QR payload of a payment once its coin is known: `<coin>:<address>?amount=<amount>`, as the service's own. */
export function qrPayload(status: Record<string, unknown>): string | undefined {
  const { currency, address, requiredAmount } = status
  if (typeof currency !== "string" || typeof address !== "string" || requiredAmount == null) return undefined
  return `${currency.toLowerCase()}:${address}?amount=${requiredAmount}`
}

/** A QR code as SVG, for the hosted page (wallet apps scan it). */
export function qrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 2 })
}

/** The page's look: one white card on grey, a badge per status, a grid of details. */
const PAGE_STYLES = `<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f4f4f5; color: #18181b; }
  main { max-width: 560px; margin: 32px auto; background: #fff; border-radius: 12px; padding: 24px 28px; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  .muted { color: #71717a; font-size: 13px; }
  .badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 600; font-size: 13px; }
  .PENDING { background: #fef3c7; color: #92400e; } .COMPLETED { background: #dcfce7; color: #166534; }
  .EXPIRED, .FAILED { background: #fee2e2; color: #991b1b; }
  dl { display: grid; grid-template-columns: 150px 1fr; gap: 6px 12px; margin: 16px 0; }
  dt { color: #71717a; } dd { margin: 0; word-break: break-all; font-family: ui-monospace, monospace; }
  button { font: inherit; padding: 6px 12px; margin: 4px 4px 0 0; border-radius: 6px; border: 1px solid #d4d4d8; background: #fafafa; cursor: pointer; }
  button.primary { background: #18181b; color: #fff; border-color: #18181b; }
  button:disabled { opacity: .45; cursor: default; }
  #coins button { min-width: 96px; }
  #error { color: #b91c1c; min-height: 1.5em; }
  #qr:not([hidden]) { display: block; margin: 12px 0 0; border: 1px solid #e4e4e7; border-radius: 8px; }
  section { margin-top: 16px; }
</style>`

/** The page's head: charset, viewport, title and the styles. */
const PAGE_HEAD = `<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crypto payment — sandbox</title>
${PAGE_STYLES}
</head>`

/** The payment panel: status and countdown, coin choice, QR code, details, the blockchain's and the end's buttons. */
const PAYMENT_PANEL = `<main>
  <h1>Pay with crypto <span class="muted">(sandbox)</span></h1>
  <div class="muted">Payment <code id="pid"></code></div>
  <p><span id="status" class="badge">…</span> <span id="countdown" class="muted"></span></p>
  <section id="choose" hidden>
    <strong>Choose a coin</strong>
    <div id="coins"></div>
  </section>
  <img id="qr" alt="QR code of the payment" width="180" height="180" hidden>
  <dl id="details"></dl>
  <section id="chain" hidden>
    <strong>Simulate the blockchain</strong><br>
    <button class="primary" data-pay="full">Pay in full</button>
    <button data-pay="partial">Pay part</button>
    <button data-pay="over">Overpay</button>
    <button id="confirm1">+1 confirmation</button>
    <button id="confirmAll">Confirm fully</button>
  </section>
  <section id="end" hidden>
    <strong>End the payment</strong><br>
    <button id="expire">Let it expire</button>
    <button id="fail">Make it fail</button>
  </section>
  <p id="error"></p>
</main>`

/** The script's view: GET/POST on the payment's control API, and the panel drawn from its answer. */
const SCRIPT_RENDER = `const base = "/__sandbox/payments/" + encodeURIComponent(paymentId);
const $ = (s) => document.querySelector(s);
let state = null;
async function call(path, body) {
  $("#error").textContent = "";
  const res = await fetch(base + path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) { $("#error").textContent = json.error || res.statusText; return; }
  state = json; render();
}
function row(label, value) { return value === undefined || value === null ? "" : "<dt>" + label + "</dt><dd>" + String(value).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]) + "</dd>"; }
function render() {
  const s = state;
  $("#pid").textContent = s.paymentId;
  const badge = $("#status"); badge.textContent = s.status; badge.className = "badge " + s.status;
  const open = s.status === "PENDING";
  $("#choose").hidden = !(s.kind === "invoice" && open && s.transactions.length === 0);
  if (s.kind === "invoice" && s.conversionRates) {
    $("#coins").innerHTML = Object.entries(s.conversionRates).map(([coin, r]) =>
      '<button data-coin="' + coin + '"' + (s.currency === coin ? ' class="primary"' : "") + ">" + coin + "<br><small>" + r.cryptoAmount + "</small></button>").join("");
  }
  $("#details").innerHTML =
    row("Amount", s.baseAmount + " " + s.baseCurrency) + row("Order", s.orderId) +
    row("Coin", s.currency) + row("Address", s.address) +
    row("QR payload", s.currency ? s.currency.toLowerCase() + ":" + s.address + "?amount=" + s.requiredAmount : null) +
    row("Required", s.currency ? s.requiredAmount + " " + s.currency : null) +
    row("Received", s.currency ? s.currentBalance + " " + s.currency : null) +
    row("Still to pay", s.currency ? s.remainingAmount : null) +
    row("Confirmations", s.currency ? s.confirmations + " / " + s.requiredConfirmations : null) +
    row("Expires", s.expiresAt) + row("Completed", s.completedAt) + row("Webhook", s.webhookUrl);
  const qr = $("#qr"); qr.hidden = !s.address;
  const qrSrc = s.address ? "/pay/" + encodeURIComponent(s.paymentId) + "/qr.svg?for=" + encodeURIComponent(s.currency + ":" + s.address) : "";
  if (qr.getAttribute("src") !== qrSrc && qrSrc) qr.setAttribute("src", qrSrc);
  $("#chain").hidden = !s.currency || s.status === "FAILED" || s.status === "COMPLETED";
  for (const b of document.querySelectorAll("#chain button")) b.disabled = b.id.startsWith("confirm") && s.transactions.length === 0;
  $("#end").hidden = !open;
}`

/** The script's controls: the countdown, the buttons, and a refresh every 3 seconds. */
const SCRIPT_CONTROLS = `function tick() {
  if (!state) return;
  const left = new Date(state.expiresAt).getTime() - new Date(state.now).getTime() - (Date.now() - loadedAt);
  $("#countdown").textContent = state.status === "PENDING" ? (left > 0 ? "expires in " + Math.floor(left / 60000) + ":" + String(Math.floor(left / 1000) % 60).padStart(2, "0") : "expiring…") : "";
}
let loadedAt = Date.now();
document.addEventListener("click", (e) => {
  const t = e.target.closest("button"); if (!t) return;
  if (t.dataset.coin) call("/select", { currency: t.dataset.coin });
  else if (t.dataset.pay) call("/pay", { mode: t.dataset.pay });
  else if (t.id === "confirm1") call("/confirm", { confirmations: 1 });
  else if (t.id === "confirmAll") call("/confirm", {});
  else if (t.id === "expire") call("/expire", {});
  else if (t.id === "fail") call("/fail", {});
});
async function refresh() { loadedAt = Date.now(); await call(""); }
refresh(); setInterval(refresh, 3000); setInterval(tick, 1000);`

/** The page's script for one payment (its id as a JS string literal, safe inside <script>). */
function pageScript(id: string): string {
  return `<script>
const paymentId = ${id};
${SCRIPT_RENDER}
${SCRIPT_CONTROLS}
</script>`
}

/**
 * The hosted invoice/payment page of the sandbox (what `invoiceUrl` opens): plain HTML and
 * a little script over the control API. A person picks a coin, sees the address, the amount, its
 * QR code, a countdown and the confirmations, and presses the buttons a blockchain would.
 */
export function hostedPage(paymentId: string): string {
  const id = JSON.stringify(paymentId).replace(/</g, "\\u003c")
  return `<!doctype html>
<html lang="en">
${PAGE_HEAD}
<body>
${PAYMENT_PANEL}
${pageScript(id)}
</body>
</html>`
}
