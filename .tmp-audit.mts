import { ALGORITHMS, hostileInputs } from "./scripts/bench/hostile";
const sizes = [4000, 16000];
const only = process.env.ALG;
const a = hostileInputs(sizes[0]); const b = hostileInputs(sizes[1]);
for (const alg of ALGORITHMS.filter(x => !only || x.name.startsWith(only))) {
  for (let i = 0; i < a.length; i++) {
    const t = (s: string) => { const t0 = performance.now(); alg.run(s); return performance.now() - t0; };
    t(a[i].text);
    const ta = Math.min(t(a[i].text), t(a[i].text));
    const tb = t(b[i].text);
    const ratio = tb / Math.max(ta, 0.05);
    if (tb > 20 || ratio > 8) console.log(alg.name.padEnd(22), a[i].name.padEnd(18), ta.toFixed(2), tb.toFixed(2), "x" + ratio.toFixed(1));
  }
  console.log("done", alg.name);
}
