// The embedder used when no embedding API is configured: deterministic, offline and fast.
//
// It is LEXICAL, not semantic. Two texts come out similar only when they share words, word stems,
// adjacent word pairs or character trigrams of words — "cache invalidation" finds "invalidating
// the cached entries", but "the login is broken" does not find "authentication fails". Full-text
// search covers much the same ground, so with this embedder hybrid search mostly gains fuzziness
// (inflections, identifiers written differently, partial words); real paraphrase matching needs
// a semantic provider (set VOYAGE_API_KEY).
//
// Features are hashed into the vector ("feature hashing"): each feature's 32-bit hash picks a
// dimension and, from an independent bit, a sign, so colliding features cancel on average
// instead of always inflating similarity.
import type { EmbedKind, Embedder } from "./embedding";
import { mapSliced } from "@/lib/context/yield";

export const LOCAL_EMBEDDING_MODEL = "local-lexical-v1";

// Whole words carry the meaning; pairs reward matching phrases and word order; trigrams only
// bridge spelling variants the stemmer misses, so they weigh least. Trigrams far outnumber
// words, hence a weight well below the words' despite the sublinear TF.
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.3;

// Function words only: they would make every pair of English texts look alike. Particles like
// "up", "down" and "out" stay words ("scale up", "server down", "out of memory"). Contraction
// stubs are listed because the tokenizer splits "don't" into "don" and "t".
const STOPWORDS = new Set(
  (
    "a about after again against all also am an and any are as at be because been before being between both but by can " +
    "could did do does doing done during each either few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just may me might more most must my myself neither no nor not of on once " +
    "only or other ought our ours ourselves own same shall she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too until upon very was we were what when where whether which " +
    "while who whom whose why will with within without would yet you your yours yourself yourselves aren couldn didn doesn " +
    "don hadn hasn haven isn ll re shouldn ve wasn weren won wouldn"
  ).split(" "),
);

// --- Hashing -----------------------------------------------------------------------------------

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// Distinct starting states keep the families apart: the word "abc" and the trigram "abc" are
// different features.
const UNIGRAM_SEED = Math.imul(FNV_OFFSET ^ 0x55, FNV_PRIME);
const BIGRAM_SEED = Math.imul(FNV_OFFSET ^ 0x42, FNV_PRIME);
const TRIGRAM_SEED = Math.imul(FNV_OFFSET ^ 0x54, FNV_PRIME);
// Word boundary markers for trigrams; the tokenizer never emits control characters.
const WORD_START = 0x02;
const WORD_END = 0x03;
const BIGRAM_JOIN = 0x20;

// FNV-1a over UTF-16 code units (a whole unit per step: fine for hashing, not the byte-wise spec).
function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

// FNV-1a's low bits, which pick the dimension, mix poorly for short inputs; murmur3's finalizer
// spreads every input bit over all 32 so the bucket (low bits) and the sign (top bit) are independent.
function finalize(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Feature hash → count, open addressing over typed arrays. A Map was the hot spot: most 32-bit
 * hashes are not small integers to V8, so every lookup boxed a number. Reused across calls
 * (embedding is synchronous), so a text costs no allocation once the table has grown.
 */
class FeatureCounts {
  private keys = new Int32Array(1024);
  private counts = new Int32Array(1024);
  private slots = new Int32Array(1024); // occupied slot numbers, to visit and clear only those
  size = 0;

  add(key: number, times = 1): void {
    const mask = this.keys.length - 1;
    // The key is already a well-mixed hash, so its low bits are a fine probe start.
    for (let i = key & mask; ; i = (i + 1) & mask) {
      if (this.counts[i] === 0) {
        this.keys[i] = key;
        this.counts[i] = times;
        this.slots[this.size++] = i;
        // Keep the load at most 1/2 so linear probing stays short.
        if (this.size * 2 > this.keys.length) this.grow();
        return;
      }
      if (this.keys[i] === key) {
        this.counts[i] += times;
        return;
      }
    }
  }

  forEach(fn: (key: number, count: number) => void): void {
    for (let j = 0; j < this.size; j++) fn(this.keys[this.slots[j]], this.counts[this.slots[j]]);
  }

  clear(): void {
    if (this.size === 0) return;
    for (let j = 0; j < this.size; j++) this.counts[this.slots[j]] = 0;
    this.size = 0;
  }

  private grow(): void {
    const { keys, counts, slots, size } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.counts = new Int32Array(keys.length * 2);
    this.slots = new Int32Array(keys.length * 2);
    this.size = 0;
    for (let j = 0; j < size; j++) this.add(keys[slots[j]], counts[slots[j]]);
  }
}

// --- Tokens ------------------------------------------------------------------------------------

// Letters, digits and underscores: a whole identifier stays one raw token, split below.
const RAW_TOKEN = /[\p{L}\p{N}_]+/gu;
const CAMEL_LOWER_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu; // createSession → create Session
const CAMEL_ACRONYM_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu; // HTTPServer → HTTP Server
// "URLs", "IDs": an acronym's plural is not a camelCase boundary before "s".
const ACRONYM_PLURAL = /(\p{Lu}{2,})s(?!\p{Ll})/gu;
const PART_SEPARATOR = /[\s_]+/;
// Accented Latin letters (Latin-1, Extended-A/B, Vietnamese): folding them is worth an NFKD
// pass; other non-ASCII text (dashes, arrows, other scripts) is left as is.
const ACCENTED_LATIN = /[\u00c0-\u024f\u1e00-\u1eff]/;
const COMBINING_MARK = /\p{M}/gu;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** The same split as splitIdentifier's ASCII loop, for tokens with non-ASCII letters. */
function splitUnicodeIdentifier(raw: string): string[] {
  return raw
    .replace(ACRONYM_PLURAL, (_, acronym: string) => `${acronym}S`)
    .replace(CAMEL_LOWER_UPPER, "$1 $2")
    .replace(CAMEL_ACRONYM_WORD, "$1 $2")
    .toLowerCase()
    .split(PART_SEPARATOR)
    .filter((p) => p !== "");
}

/**
 * The words of a raw token, lowercased: "createSession", "create_session" and "CreateSession"
 * all give ["create", "session"], "HTTPServer" gives ["http", "server"], "URLs" gives ["urls"].
 * Keeping identifier parts as words is what lets a prose query find a memory that only names
 * the identifier. A char-code loop rather than regex replaces: this runs once per token and
 * dominated the embedding time.
 */
export function splitIdentifier(raw: string): string[] {
  const parts: string[] = [];
  const n = raw.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c > 127) return splitUnicodeIdentifier(raw);
    if (c === 95 /* _ */) {
      if (i > start) parts.push(raw.slice(start, i).toLowerCase());
      start = i + 1;
    } else if (isUpper(c) && i > start) {
      const prev = raw.charCodeAt(i - 1);
      const next = i + 1 < n ? raw.charCodeAt(i + 1) : 0;
      const lowerOrDigitBefore = isLower(prev) || isDigit(prev);
      // An acronym followed by a word: split before the word's capital — unless the "word" is a
      // lone plural "s" closing the acronym.
      const acronymThenWord =
        isUpper(prev) && isLower(next) && !(next === 115 /* s */ && !isLower(i + 2 < n ? raw.charCodeAt(i + 2) : 0));
      if (lowerOrDigitBefore || acronymThenWord) {
        parts.push(raw.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  if (n > start) parts.push(start === 0 ? raw.toLowerCase() : raw.slice(start).toLowerCase());
  return parts;
}

const isVowel = (c: string) => c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || c === "y";

function hasVowel(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(s[i])) return true;
  return false;
}

// "running" → "runn" → "run", "embedded" → "embed"; l, s and z doubles are usually part of the
// stem ("called", "passed", "buzzing"), and a two-letter result is more often wrong ("added").
function undouble(s: string): string {
  const n = s.length;
  if (n >= 4 && s[n - 1] === s[n - 2] && !isVowel(s[n - 1]) && !"lsz".includes(s[n - 1])) return s.slice(0, -1);
  return s;
}

/**
 * A deliberately light suffix stripper (plurals, -ing, -ed, a final -e) rather than Porter: it
 * only has to map inflections of one word onto the same key, and it must be cheap. It over- and
 * under-stems some words ("used" stays apart from "use"); trigrams soften those misses.
 */
export function stem(word: string): string {
  let s = word;
  if (s.length < 3) return s;
  if (s.endsWith("ies") && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith("sses")) s = s.slice(0, -2);
  else if (s.endsWith("s") && !s.endsWith("ss") && !s.endsWith("us") && !s.endsWith("is")) s = s.slice(0, -1);

  if (s.endsWith("ied") && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith("ing") && s.length >= 6 && hasVowel(s, s.length - 3)) s = undouble(s.slice(0, -3));
  else if (s.endsWith("ed") && !s.endsWith("eed") && s.length >= 5 && hasVowel(s, s.length - 2)) s = undouble(s.slice(0, -2));

  // So that "create", "creates", "created" and "creating" all become "creat".
  if (s.length >= 4 && s.endsWith("e") && !s.endsWith("ee")) s = s.slice(0, -1);
  return s;
}

// --- Embedding ---------------------------------------------------------------------------------

const unigrams = new FeatureCounts();
const bigrams = new FeatureCounts();
const trigrams = new FeatureCounts();

/** Counts the text's features into the three shared tables, which addFeatures empties. */
function collectFeatures(text: string): void {
  // Normally empty already; this only matters if a previous call threw halfway.
  unigrams.clear();
  bigrams.clear();
  trigrams.clear();
  // Accents are folded so "café" meets "cafe".
  const source = ACCENTED_LATIN.test(text) ? text.normalize("NFKD").replace(COMBINING_MARK, "") : text;
  let previousStem: string | null = null;
  for (const raw of source.match(RAW_TOKEN) ?? []) {
    const parts = splitIdentifier(raw);
    for (const part of parts) {
      // Lone letters ("x", the "s" of "user's") say nothing; lone digits may ("step 3").
      if ((part.length === 1 && !isDigit(part.charCodeAt(0))) || STOPWORDS.has(part)) continue;
      const stemmed = stem(part);
      unigrams.add(finalize(fnv(UNIGRAM_SEED, stemmed)));
      if (previousStem !== null) {
        bigrams.add(finalize(fnv(Math.imul(fnv(BIGRAM_SEED, previousStem) ^ BIGRAM_JOIN, FNV_PRIME), stemmed)));
      }
      previousStem = stemmed;
      // The surface form, not the stem: an exact spelling then shares more with the query than
      // an inflection does, so it ranks above it.
      addTrigrams(part);
    }
    // The joined identifier is a word of its own, so the same identifier spelled the same way
    // beats a prose mention of its parts.
    if (parts.length > 1) {
      const joined = parts.join("");
      if (!STOPWORDS.has(joined)) unigrams.add(finalize(fnv(UNIGRAM_SEED, stem(joined))));
    }
  }
}

function addTrigrams(word: string): void {
  const last = word.length - 1;
  for (let i = 0; i <= last; i++) {
    let h = Math.imul(TRIGRAM_SEED ^ (i === 0 ? WORD_START : word.charCodeAt(i - 1)), FNV_PRIME);
    h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
    h = Math.imul(h ^ (i === last ? WORD_END : word.charCodeAt(i + 1)), FNV_PRIME);
    trigrams.add(finalize(h));
  }
}

function addFeatures(v: Float64Array, mask: number, counts: FeatureCounts, weight: number): void {
  counts.forEach((h, tf) => {
    // Sublinear TF: a word said five times is more central than one said once, not five times so.
    const w = weight * (1 + Math.log(tf));
    v[h & mask] += h < 0 ? -w : w;
  });
  counts.clear();
}

/**
 * Feature-hashing embedder: word unigrams, word bigrams and boundary-marked character trigrams of
 * each word, hashed with a sign into `dimensions` buckets, sublinear TF, L2-normalized. A text
 * with no features (empty, punctuation, only stopwords) gives the zero vector — it has no
 * direction — and callers store no embedding for it, so vector search skips it while full-text
 * search still can find it.
 */
export class LocalLexicalEmbedder implements Embedder {
  readonly model = LOCAL_EMBEDDING_MODEL;
  private readonly mask: number;

  constructor(readonly dimensions: number) {
    // Bucket = low bits of the hash, which is only uniform for a power of two.
    if (!Number.isInteger(dimensions) || dimensions <= 0 || (dimensions & (dimensions - 1)) !== 0) {
      throw new Error(`LocalLexicalEmbedder: dimensions must be a power of two, got ${dimensions}`);
    }
    this.mask = dimensions - 1;
  }

  embedOne(text: string): number[] {
    collectFeatures(text);
    const v = new Float64Array(this.dimensions);
    addFeatures(v, this.mask, unigrams, UNIGRAM_WEIGHT);
    addFeatures(v, this.mask, bigrams, BIGRAM_WEIGHT);
    addFeatures(v, this.mask, trigrams, TRIGRAM_WEIGHT);
    let sum = 0;
    for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
    const out = new Array<number>(v.length);
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
    return out;
  }

  // Symmetric: documents and queries go through the same features, so `kind` changes nothing.
  // In slices: a batch of long texts is hundreds of milliseconds of the server's one thread.
  async embed(texts: readonly string[], _kind: EmbedKind): Promise<number[][]> {
    return mapSliced(texts, (t) => this.embedOne(t));
  }
}
