import { ALGORITHMS, hostileInputs } from "./scripts/bench/hostile";
const pairs = (process.env.PAIRS ?? "").split(";").map(p => p.split("|"));
const a = hostileInputs(Number(process.env.A ?? 16000)); const b = hostileInputs(Number(process.env.B ?? 64000));
for (const [alg, inp] of pairs) {
  const A = ALGORITHMS.find(x => x.name === alg)!; const i = a.findIndex(x => x.name === inp);
  const t = (s: string) => { const t0 = performance.now(); A.run(s); return performance.now() - t0; };
  t(a[i].text);
  const ta = Math.min(t(a[i].text), t(a[i].text), t(a[i].text));
  const tb = Math.min(t(b[i].text), t(b[i].text));
  console.log(alg.padEnd(22), inp.padEnd(18), ta.toFixed(2), tb.toFixed(2), "x" + (tb/ta).toFixed(1));
}
