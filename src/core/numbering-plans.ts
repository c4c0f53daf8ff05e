import metadataJson from 'libphonenumber-js/metadata.max.json';

/**
 * Whether an international number exists in the numbering plan of its country, decided from
 * libphonenumber's full ("max") metadata exactly as libphonenumber-js's
 * `parsePhoneNumberFromString('+' + digits)?.isValid()` decides it, at a fraction of the cost.
 *
 * libphonenumber-js builds a `RegExp` from the metadata's pattern text on every test (the US
 * fixed-line pattern alone is a kilobyte), several times a number, and wraps each step in new
 * metadata objects: that was a tenth of a send's time. Here each numbering plan's patterns are
 * compiled once, the first time a number of that plan is checked, and the steps are the same:
 *
 * 1. the calling code is the shortest prefix of one to three digits that the metadata knows;
 * 2. the national prefix is stripped (or transformed) as when parsing, and kept only if the
 *    number still looks like one of the plan (libphonenumber's `extractNationalNumber`);
 * 3. the country is the only one of its calling code, or the first whose leading digits, or else
 *    whose number types, match (`getCountryByCallingCode`);
 * 4. the national number matches the country's general pattern and the pattern and lengths of one
 *    of its number types (fixed line, mobile, toll free, ...), or only the general pattern where
 *    the metadata lists no types.
 *
 * phone.test.ts holds this to libphonenumber-js's own answer over every number up to five digits,
 * hundreds of thousands of random ones of every calling code, and variations of each country's
 * example number.
 */

/** A numbering plan in libphonenumber-js's metadata format, version 4 (positional fields). */
type PlanJson = readonly unknown[];

interface Metadata {
  version: number;
  country_calling_codes: Record<string, readonly string[]>;
  countries: Record<string, PlanJson>;
  nonGeographic?: Record<string, PlanJson>;
}

const METADATA = metadataJson as unknown as Metadata;

/**
 * Whether the installed libphonenumber-js ships metadata in the format read here (version 4). A
 * later format makes phone.ts ask libphonenumber-js itself, slower but never wrong.
 */
export const NUMBERING_PLANS_READABLE = METADATA.version === 4;

// Positions of a plan's fields in metadata version 4 (libphonenumber-js's metadata.js).
const NATIONAL_NUMBER_PATTERN = 2;
const POSSIBLE_LENGTHS = 3;
const NATIONAL_PREFIX = 5;
const NATIONAL_PREFIX_FOR_PARSING = 7;
const NATIONAL_PREFIX_TRANSFORM_RULE = 8;
const LEADING_DIGITS = 10;
const TYPES = 11;
/** Fixed line, mobile, toll free, premium rate, personal, voicemail, UAN, pager, VoIP, shared cost. */
const TYPE_COUNT = 10;

/** Shortest and longest national numbers libphonenumber parses (its MIN/MAX_LENGTH_FOR_NSN). */
const MIN_NATIONAL_LENGTH = 2;
const MAX_NATIONAL_LENGTH = 17;

interface NumberType {
  pattern: RegExp;
  lengths: readonly number[] | undefined;
}

interface Plan {
  /** The whole national number matches it. */
  nationalNumber: RegExp;
  possibleLengths: readonly number[] | undefined;
  /** Anchored at the start only, as libphonenumber matches it. */
  nationalPrefixForParsing: RegExp | undefined;
  nationalPrefixTransformRule: string | undefined;
  /** Unanchored: a country of a shared calling code is chosen when it matches at the start. */
  leadingDigits: RegExp | undefined;
  /** undefined when the metadata lists no types for the plan. */
  types: readonly NumberType[] | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const lengths = (value: unknown): readonly number[] | undefined => (Array.isArray(value) ? (value as number[]) : undefined);
const entirely = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);

function compile(json: PlanJson): Plan {
  const possibleLengths = lengths(json[POSSIBLE_LENGTHS]);
  const nationalPrefix = str(json[NATIONAL_PREFIX]);
  const forParsing = str(json[NATIONAL_PREFIX_FOR_PARSING]) ?? nationalPrefix;
  const leading = str(json[LEADING_DIGITS]);
  const typesJson = json[TYPES];
  let types: NumberType[] | undefined;
  if (Array.isArray(typesJson) && typesJson.length > 0) {
    types = [];
    for (let i = 0; i < TYPE_COUNT; i++) {
      const type = typesJson[i] as unknown;
      const pattern = Array.isArray(type) ? str(type[0]) : undefined;
      // A type without a pattern never matches.
      if (pattern) types.push({ pattern: entirely(pattern), lengths: lengths((type as unknown[])[1]) ?? possibleLengths });
    }
  }
  return {
    nationalNumber: entirely(String(json[NATIONAL_NUMBER_PATTERN])),
    possibleLengths,
    nationalPrefixForParsing: forParsing ? new RegExp(`^(?:${forParsing})`) : undefined,
    nationalPrefixTransformRule: str(json[NATIONAL_PREFIX_TRANSFORM_RULE]),
    leadingDigits: leading ? new RegExp(leading) : undefined,
    types,
  };
}

/** Plans compiled so far, by country code ("US") or, for non-geographic ones, calling code ("800"). */
const compiled = new Map<string, Plan>();

function planOf(key: string, json: PlanJson): Plan {
  let plan = compiled.get(key);
  if (!plan) {
    plan = compile(json);
    compiled.set(key, plan);
  }
  return plan;
}

/** Countries sharing a geographic calling code, the main one first; undefined for other codes. */
function countriesOf(callingCode: string): readonly string[] | undefined {
  const countries = METADATA.country_calling_codes[callingCode];
  // Non-geographic codes may be listed as the single pseudo-country "001".
  if (!countries || (countries.length === 1 && (countries[0] as string).length === 3)) return undefined;
  return countries;
}

/** The plan a calling code selects before its country is known (its main country's), if the code exists. */
function planOfCallingCode(callingCode: string): Plan | undefined {
  const countries = countriesOf(callingCode);
  if (countries) return countryPlan(countries[0] as string);
  if (METADATA.nonGeographic) {
    const nonGeographic = METADATA.nonGeographic[callingCode];
    return nonGeographic ? planOf(callingCode, nonGeographic) : undefined;
  }
  const listed = METADATA.country_calling_codes[callingCode];
  if (listed && listed.length === 1 && listed[0] === '001') {
    const world = METADATA.countries['001'];
    if (world) return planOf('001', world);
  }
  return undefined;
}

function countryPlan(country: string): Plan {
  return planOf(country, METADATA.countries[country] as PlanJson);
}

/** Whether the national number is of one of the plan's types (libphonenumber's getNumberType !== undefined). */
function isOfSomeType(plan: Plan, national: string): boolean {
  if (!plan.nationalNumber.test(national) || !plan.types) return false;
  for (const type of plan.types) {
    if (type.lengths && !type.lengths.includes(national.length)) continue;
    if (type.pattern.test(national)) return true;
  }
  return false;
}

/** The country of a calling code a national number belongs to (libphonenumber's getCountryByCallingCode). */
function countryOf(callingCode: string, national: string): string | undefined {
  const countries = countriesOf(callingCode);
  if (!countries) return undefined;
  if (countries.length === 1) return countries[0];
  for (const country of countries) {
    const plan = countryPlan(country);
    if (plan.leadingDigits) {
      if (national !== '' && national.search(plan.leadingDigits) === 0) return country;
    } else if (isOfSomeType(plan, national)) {
      return country;
    }
  }
  return undefined;
}

/** libphonenumber's checkNumberLength: whether a length is one the plan allows (or could grow into). */
function lengthPossible(plan: Plan, national: string): boolean {
  const possible = plan.possibleLengths;
  if (!possible) return true;
  const length = national.length;
  const shortest = possible[0] as number;
  if (shortest === length) return true;
  if (shortest > length) return false; // too short
  if ((possible[possible.length - 1] as number) < length) return true; // too long is still "possible" here
  return possible.indexOf(length, 1) >= 0;
}

/** The national number once the national prefix is taken off, where libphonenumber takes it off. */
function withoutNationalPrefix(plan: Plan, callingCode: string, number: string): string {
  const pattern = plan.nationalPrefixForParsing;
  if (!pattern) return number;
  const match = pattern.exec(number);
  if (!match) return number;
  const groups = match.length - 1;
  const hasGroups = groups > 0 && Boolean(match[groups]);
  const national =
    plan.nationalPrefixTransformRule && hasGroups
      ? number.replace(pattern, plan.nationalPrefixTransformRule)
      : number.slice(match[0].length);
  if (national === number) return number;
  // Not a prefix after all where the number matches the plan whole and would not without it.
  if (plan.nationalNumber.test(number) && !plan.nationalNumber.test(national)) return number;
  if (plan.possibleLengths) {
    const country = countryOf(callingCode, national);
    if (!lengthPossible(country ? countryPlan(country) : plan, national)) return number;
  }
  return national;
}

/** `digits`: an international number without its "+", e.g. "14155552671". */
export function isValidInternationalNumber(digits: string): boolean {
  if (digits === '' || digits[0] === '0') return false;
  for (let length = 1; length <= 3 && length <= digits.length; length++) {
    const callingCode = digits.slice(0, length);
    const plan = planOfCallingCode(callingCode);
    if (!plan) continue;
    const rest = digits.slice(length);
    if (rest === '') return false;
    const national = withoutNationalPrefix(plan, callingCode, rest);
    if (national.length < MIN_NATIONAL_LENGTH || national.length > MAX_NATIONAL_LENGTH) return false;
    const country = countryOf(callingCode, national);
    const numbering = country ? countryPlan(country) : plan;
    return numbering.types ? isOfSomeType(numbering, national) : numbering.nationalNumber.test(national);
  }
  return false;
}
