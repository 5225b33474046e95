const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** One way the wallet can answer a request (dev-wallet.ts's WALLET_ANSWERS). */
interface PageAnswer {
  readonly answer: string
  readonly label: string
  readonly says: string
}

/**
 * The dev wallet's approval page: the default wallet's address and balance, the connections (each
 * with the address that answers it), and every waiting request (a connection, or a transaction with
 * its messages and comments) with Approve / Reject, and for a transaction the failing answers too
 * (fail, send then fail, never answer). The mode picker answers every later request the same way
 * (off: each waits here). It polls the wallet's state every second, so one open tab serves every
 * later request too.
 */
export const devWalletPage = (o: { prefix: string; notice: string; answers: ReadonlyArray<PageAnswer> }): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>AXIOM Dev Wallet</title>
<link rel="icon" href="${o.prefix}/icon.svg">
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;background:#0f1626;color:#e8edf7}
main{max-width:560px;margin:0 auto;padding:16px}
h1{font-size:20px;margin:8px 0 4px}.muted{color:#8a97b1;font-size:13px}
.card{background:#1a2337;border-radius:12px;padding:14px;margin:12px 0}
code{word-break:break-all;font-size:12px}
button{font:inherit;border:0;border-radius:8px;padding:10px 18px;margin:8px 8px 0 0;cursor:pointer}
.ok{background:#4fd1c5;color:#0f1626}.no{background:#3a4560;color:#e8edf7}
.notice{background:#24324f;padding:8px 12px;border-radius:8px}
input{width:100%;box-sizing:border-box;padding:8px;border-radius:8px;border:0;margin-top:6px}
select{font:inherit;padding:6px;border-radius:8px;border:0;margin-top:6px;max-width:100%}
.fail{background:#5a3a48;color:#e8edf7}
</style></head>
<body><main>
<h1>AXIOM Dev Wallet</h1>
<div class="muted">A local test wallet on the offline TON chain. Its coins are not real.</div>
${o.notice ? `<p class="notice" id="notice">${escapeHtml(o.notice)}</p>` : ''}
<div class="card"><div class="muted">Default wallet (each Telegram user who connects through AXIOM gets their own, shown below)</div><code id="addr">…</code>
<div class="muted" style="margin-top:8px">Balance</div><div id="bal">…</div>
<div class="muted" style="margin-top:8px">Answers every request: <span id="auto" data-testid="dev-wallet-mode">…</span></div>
<label class="muted" style="display:block;margin-top:8px">Mode <select id="mode" data-testid="dev-wallet-mode-picker">
<option value="off">off: each request waits here for an answer</option>
${o.answers.map((a) => `<option value="${escapeHtml(a.answer)}">${escapeHtml(a.answer)}: ${escapeHtml(a.says)}</option>`).join('')}
</select></label></div>
<div id="requests"></div>
<div class="card"><div class="muted">Connections</div><div id="conns">none</div>
<button class="no" id="disc">Disconnect all</button></div>
<div class="card"><div class="muted">Paste a TON Connect link (tc://… or a universal link) to connect</div>
<input id="link" placeholder="tc://?v=2&id=…&r=…"><button class="ok" id="go">Connect</button></div>
</main>
<script>
const P=${JSON.stringify(o.prefix)};
const ANSWERS=${JSON.stringify(o.answers.map((a) => ({ answer: a.answer, label: a.label, says: a.says })))};
const ton=n=>{const s=String(n).padStart(10,'0');const w=s.slice(0,-9).replace(/\\B(?=(\\d{3})+(?!\\d))/g,' ');const f=s.slice(-9).replace(/0+$/,'');return w+(f?'.'+f:'')+' TON'};
const esc=s=>String(s).replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]);
async function act(id,a){await fetch(P+'/api/requests/'+id+'/'+a,{method:'POST'});refresh()}
function render(r){
  if(r.kind==='connect') return '<div class="card" data-id="'+r.id+'"><b>'+esc(r.app.name)+'</b> wants to connect<div class="muted">'+esc(r.app.url)+'</div><div class="muted">as '+esc(r.details.address)+(r.details.user?' (Telegram user '+esc(r.details.user)+')':'')+'</div><div class="muted">asks for: '+esc(r.details.items.join(', '))+'</div>'+
    '<button class="ok" onclick="act(\\''+r.id+'\\',\\'approve\\')">Approve</button><button class="no" onclick="act(\\''+r.id+'\\',\\'reject\\')">Reject</button></div>';
  const ms=r.details.messages.map(m=>'<div>'+ton(m.amount)+' → <code>'+esc(m.address)+'</code>'+(m.comment?'<div class="muted">comment: '+esc(m.comment)+'</div>':'')+'</div>').join('');
  return '<div class="card" data-id="'+r.id+'"><b>'+esc(r.app.name)+'</b> asks to send a transaction'+(r.details.from?'<div class="muted">from '+esc(r.details.from)+'</div>':'')+ms+
    ANSWERS.map(a=>'<button class="'+(a.answer==='approve'?'ok':a.answer==='reject'?'no':'fail')+'" title="'+esc(a.says)+'" onclick="act(\\''+r.id+'\\',\\''+a.answer+'\\')">'+esc(a.label)+'</button>').join('')+'</div>';
}
async function refresh(){
  try{const s=await (await fetch(P+'/api/state')).json();
  document.getElementById('addr').textContent=s.wallet.friendly+'  ('+s.wallet.address+')';
  document.getElementById('bal').textContent=ton(s.wallet.balance);
  document.getElementById('auto').textContent=s.auto;
  const picker=document.getElementById('mode');if(document.activeElement!==picker)picker.value=s.auto;
  document.getElementById('requests').innerHTML=s.requests.map(render).join('');
  document.getElementById('conns').innerHTML=s.connections.length?s.connections.map(c=>esc(c.app)+' — <code>'+esc(c.friendly)+'</code>'+(c.user?' (Telegram user '+esc(c.user)+')':'')).join('<br>'):'none';}catch(e){}
}
document.getElementById('mode').onchange=async e=>{await fetch(P+'/api/auto',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({mode:e.target.value})});refresh()};
document.getElementById('disc').onclick=async()=>{await fetch(P+'/api/disconnect',{method:'POST'});refresh()};
document.getElementById('go').onclick=async()=>{const link=document.getElementById('link').value;
  const r=await fetch(P+'/api/connect',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({link})});
  if(!r.ok)alert((await r.json()).msg);refresh()};
refresh();setInterval(refresh,1000);
</script></body></html>`
