import { ALGORITHMS, hostileInputs } from "./scripts/bench/hostile";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
estimateTextTokens("warm");
const inputs = hostileInputs(Number(process.env.N ?? 1000000));
const only = process.env.ALG;
for (const alg of ALGORITHMS.filter(x => !only || x.name.startsWith(only))) {
  const slow: string[] = [];
  let worst = 0;
  for (const inp of inputs) {
    const t0 = performance.now(); alg.run(inp.text); const ms = performance.now() - t0;
    worst = Math.max(worst, ms);
    if (ms > 50) slow.push(`${inp.name}=${ms.toFixed(0)}`);
  }
  console.log(alg.name.padEnd(22), "worst", worst.toFixed(0), slow.join(" "));
}
