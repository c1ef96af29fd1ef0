/**
 * Evidence that two reports are **different patients**, read from what separates real VAERS
 * reports (issue 32; the labelled set test/fixtures/linkage/labelled-pairs.csv, docs/duplicates.md
 * "What separates real reports"): batches of one sender numbered one patient at a time, narratives
 * written for a group ("1 of 5 pts", "85 recruits", "MD reported 20 pts"), siblings and twins,
 * stated ages or age bands that differ, pronouns against SEX, and one template narrative shared
 * by many reports.
 *
 * Per report (`patientEvidence`, from SYMPTOM_TEXT): the age the narrative states (years; "4
 * month old" is 4/12), an age band ("40's": 40 to 50), the sex its pronouns give (she/her against
 * he/him/his, only when one side is absent), whether it is written for a group and whether it
 * names a sibling or twin. Per pair (`differentPatients`): the reason the two are different
 * patients, or '' when nothing says so. The linkage (link.ts) gives such pairs the weight
 * -Infinity: like the case-identity rule (compare.ts identifiesCase), a veto on the
 * Fellegi-Sunter weight, since these facts contradict "one case" outright.
 */
import { jaccard } from './compare.js';
import { oneSenderNumbers, otherNumberedPatient, otherSuffix, sameSeries } from './case-numbers.js';
import { NO_MEDICINE, type LinkageFeatures } from './features.js';
import { equal, lotsDisagree, otherDosesOrSites, otherVaccination } from './vaccinations.js';
import { citesReaction, namesSibling, emptyFormEvidence, otherCaseLabels, readFormEvidence, otherHistories, otherNumbers, otherSiblingFields, type FormEvidence } from './form-evidence.js';

/** What a report's narrative says of its patient (see the module header); NaN / 0 / false when it says nothing. */
export interface PatientEvidence {
  /** Stated age in years (months / 12, weeks / 52), NaN when none. */
  statedAge: Float64Array;
  /** Stated decade band's lower bound in years ("40's" -> 40), NaN when none. */
  ageBand: Float64Array;
  /** 1 female, 2 male (pronouns), 0 none or both. */
  pronounSex: Uint8Array;
  /** 1 when the narrative is written for a group of patients. */
  group: Uint8Array;
  /** 1 when the narrative names a sibling or twin. */
  sibling: Uint8Array;
  /** The numbers of the narrative's measurements (measuresOf), empty when none. */
  measures: number[][];
  /** Number of other candidate reports whose narrative is near identical (word-set Jaccard >= 0.8); set by the linkage (link.ts). */
  templateShare: Int32Array;
  /** What the narrative's case label and numbers, HISTORY and PRIOR_VAX say (form-evidence.ts; round 9). */
  form: FormEvidence;
}

const AGE = /\b(\d{1,3}(?:\.\d)?)[- ]?(year|yr|month|mo|week|wk)s?[- ]?(?:old|of age)\b/i;
const BAND = /\b(?:in (?:his|her|their) |mid[- ]|late |early )?(\d)0'?s\b/i;
const N = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)`;
const MANY = String.raw`(?:[2-9]|\d{2,}|two|three|four|five|six|seven|eight|nine|ten|several|many|multiple|numerous|few)`;
const PEOPLE = String.raw`(?:pts|patients|kids|children|students|recruits|employees|vaccinees|infants|people|persons|individuals|soldiers|women|men|girls|boys|residents|workers|staff)`;
const KIND = String.raw`(?:female|male|adult|young|elderly|older|teenage|office|staff|school|clinic)`;
const GROUP = new RegExp([
  String.raw`\(${N} of ${N}\)`,
  String.raw`\b${N}\s*(?:of|\/)\s*${N}\s*(?:pts?|patients?|children|students|recruits|employees|vaccinees|infants)\b`,
  // "85 recruits", "three other female patients", "several pt devel", "2 other kids"
  String.raw`\b${MANY}\s+(?:other\s+)?(?:${KIND}\s+)?(?:${PEOPLE}|pts?)\b`,
  String.raw`\b(?:several|multiple|many|numerous)\s+(?:other\s+)?pts?\b`,
  String.raw`\b(?:another|other)\s+(?:${KIND}\s+)?(?:pts?|patients?|kids?|children|child|students?|vaccinees?)\b`,
  String.raw`\b(?:all|several) (?:\d+ )?(?:pts|patients)\b`,
  // "in some cases topical hydrocortisone" (round 7: a report of a clinic's error, SEX U)
  String.raw`\bin (?:some|several|many|most|all) cases\b`,
  String.raw`\bthis pt & \d+ other\b`,
].join('|'), 'i');
const FEMALE = /\b(?:she|her|herself)\b/gi;
const MALE = /\b(?:he|him|his|himself)\b/gi;

/** The stated age in years of a narrative (see AGE), NaN when it states none. */
export function statedAgeOf(text: string): number {
  const m = AGE.exec(text);
  if (m === null) return NaN;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  return unit.startsWith('y') ? n : unit.startsWith('m') ? n / 12 : n / 52;
}

/** The decade band of a narrative ("40's", "in her 60s", "mid-20's": the lower bound), NaN when none. */
export function ageBandOf(text: string): number {
  const m = BAND.exec(text);
  return m === null ? NaN : Number(m[1]) * 10;
}

/** The sex a narrative's pronouns give: 1 female (she/her only), 2 male (he/him/his only), 0 otherwise. */
export function pronounSexOf(text: string): number {
  const female = (text.match(FEMALE) ?? []).length;
  const male = (text.match(MALE) ?? []).length;
  return female > 0 && male === 0 ? 1 : male > 0 && female === 0 ? 2 : 0;
}

/** Whether a narrative is written for a group of patients ("1 of 5 pts", "32/89 pt", "85 recruits", "another patient"). */
export function isGroupNarrative(text: string): boolean {
  return GROUP.test(text);
}

export { namesSibling } from './form-evidence.js';

/**
 * The evidence of every report of `narratives` (index i: report row i; null: no narrative); `fields`: HISTORY and
 * PRIOR_VAX per report (round 9: a sibling named there counts as in the narrative; form-evidence.ts).
 */
export function patientEvidence(narratives: ReadonlyArray<string | null> | null | undefined, count: number,
  fields: { history?: ReadonlyArray<string | null> | null; priorVax?: ReadonlyArray<string | null> | null } = {}): PatientEvidence {
  const e = emptyPatientEvidence(count);
  for (let i = 0; i < count; i++) readPatientEvidence(e, i, narratives?.[i], fields.history?.[i], fields.priorVax?.[i]);
  return e;
}

/**
 * The evidence of `count` reports without text (what patientEvidence gives for every text null), to
 * be read row by row (readPatientEvidence: the build's linkage thread reads its text a chunk at a
 * time, linkage-text.ts).
 */
export function emptyPatientEvidence(count: number): PatientEvidence {
  return {
    statedAge: new Float64Array(count).fill(NaN), ageBand: new Float64Array(count).fill(NaN), pronounSex: new Uint8Array(count),
    group: new Uint8Array(count), sibling: new Uint8Array(count), measures: new Array<number[]>(count).fill([]), templateShare: new Int32Array(count),
    form: emptyFormEvidence(count),
  };
}

/** Sets row i of `e` (as patientEvidence) from that report's SYMPTOM_TEXT, HISTORY and PRIOR_VAX (null or undefined: blank). */
export function readPatientEvidence(e: PatientEvidence, i: number, text: string | null | undefined, history: string | null | undefined, priorVax: string | null | undefined): void {
  readFormEvidence(e.form, i, text, history, priorVax);
  if (!text) return;
  e.statedAge[i] = statedAgeOf(text);
  e.ageBand[i] = ageBandOf(text);
  e.pronounSex[i] = pronounSexOf(text);
  e.group[i] = isGroupNarrative(text) ? 1 : 0;
  e.sibling[i] = namesSibling(text) ? 1 : 0;
  e.measures[i] = measuresOf(text);
}

/** Onset dates further apart than this many days are two events (two episodes, or two patients). */
export const ONSET_DAYS = 7;

/** Reports sharing a near-identical narrative with at least this many others are a template (a batch's narrative). */
export const TEMPLATE_SHARE = 2;

/**
 * Two ages (years) that cannot be one patient, by how many of them a narrative states
 * (`stated`: 0, 1 or 2): two ages of the AGE fields more than a year apart (AGE_YRS may be
 * computed a year off), more than 0.3 year when either is under 2 (infants of one clinic aged 0.6
 * and 1.3; issue 43), or more than 0.15 year when both carry a fraction (computed from birth
 * dates: 11.4 and 12.2, 52.1 and 51.1, boys and women of one clinic day); a stated age (whole years) and an AGE 2 years or more apart; two stated
 * ages a year or more apart, or more than 3 months when either is under 2.
 */
function agesConflict(x: number, y: number, stated: number): boolean {
  const gap = Math.abs(x - y);
  if (stated === 0) {
    // Ages with a fraction are computed from a birth date: one patient's differ by days, not months.
    const computed = x % 1 !== 0 && y % 1 !== 0;
    return gap > 1 + 1e-9 || (Math.min(x, y) < 2 && gap > 0.3 + 1e-9) || (computed && gap > 0.15 + 1e-9);
  }
  if (stated === 1) return gap >= 2 - 1e-9;
  return gap >= 1 - 1e-9 || (Math.min(x, y) < 2 && gap > 0.25 + 1e-9);
}

/** Whether both reports list concomitant medicines sharing half their words (Jaccard >= 0.5; a stated "none" is no list). */
export function sameMedicines(f: LinkageFeatures, a: number, b: number): boolean {
  const listed = (i: number): boolean => f.medicines[i].length > 0 && f.medicines[i][0] !== NO_MEDICINE;
  return listed(a) && listed(b) && jaccard(f.medicines[a], f.medicines[b]) >= 0.5;
}

/** Whether both reports list concomitant medicines, two words or more each, with no word in common (features.ts medicines). */
export function otherMedicines(f: LinkageFeatures, a: number, b: number): boolean {
  const [x, y] = [f.medicines[a], f.medicines[b]];
  return x.length >= 2 && y.length >= 2 && jaccard(x, y) === 0;
}

/** The numbers of a narrative's measurements ("13x15cm", "3.0 x 5.7cm", "16cm by 10cm"; since round 5 one alone, "a 12 cm cellulitis"), sorted distinct; empty when none. */
export function measuresOf(text: string): number[] {
  const numbers = new Set<number>();
  for (const m of text.matchAll(/\b(\d+(?:\.\d+)?)\s*(?:cm|mm|in|inch(?:es)?|")?\s*(?:x|by)\s*(\d+(?:\.\d+)?)\s*(?:cm|mm|in\b|inch|")/gi)) {
    numbers.add(Number(m[1]));
    numbers.add(Number(m[2]));
  }
  // One measure alone ("a 12 cm cellulitis"; round 5).
  for (const m of text.matchAll(/\b(\d+(?:\.\d+)?)\s*(?:cm|mm)\b/gi)) numbers.add(Number(m[1]));
  return [...numbers].sort((p, q) => p - q);
}

/**
 * Whether reports `a` and `b` tell of two vaccination episodes (issue 43, round 5: one person's two
 * doses, or two persons of one clinic, each report naming its own reaction): one report's
 * vaccination or onset lies after the day the other was received (that report cannot tell of it:
 * a boy's chickenpox of 1999 against a report of 1998); or the vaccination dates differ by
 * EPISODE_DAYS or more and so do the onsets (each dose with its own reaction: rabies doses on 31
 * August and 3 September, each with its soreness that day), none of the four possibly imputed; or
 * (round 6) the vaccination dates, neither possibly imputed, differ by DOSE_DAYS or more while
 * neither narrative writes the other's date and the narratives share less than half their words
 * (a girl's rash after the dose of 5 May and a worse one after that of 9 June).
 * A follow-up correcting a vaccination date keeps the onset (C49: vaccinated 20 or 23 November,
 * rash on the 23rd in both). Round 9: an onset after the day the other form was written (RPT_DATE,
 * when not before that report's own dates; onsets EPISODE_DAYS or more apart: a form of 1
 * November cannot tell an onset of 2 November), or a vaccination EPISODE_DAYS or more after the
 * other's onset (a rash from 27 January, a second dose on 16 February), narratives sharing less
 * than half their words.
 */
export function twoEpisodes(f: LinkageFeatures, a: number, b: number): boolean {
  const after = (x: number, y: number): boolean => f.receivedDay[y] >= 0 && (f.vaxDay[x] > f.receivedDay[y] || f.onsetDay[x] > f.receivedDay[y]);
  if (after(a, b) || after(b, a)) return true;
  // Round 9: an onset after the day the other form was written (RPT_DATE), or before the other's vaccination by EPISODE_DAYS
  // or more (that reaction began before the other dose was given), none of the dates possibly imputed.
  const sure = (day: Int32Array, imputed: Uint8Array, x: number): boolean => day[x] >= 0 && imputed[x] === 0;
  // RPT_DATE is the form's day only when not before the report's own vaccination and onset; onsets a day apart are one onset told twice.
  const written = (y: number): number => (f.writtenDay[y] >= Math.max(f.vaxDay[y], f.onsetDay[y]) ? f.writtenDay[y] : -1);
  const laterOnset = (x: number, y: number): boolean => sure(f.onsetDay, f.onsetImputed, x) && written(y) >= 0 && f.onsetDay[x] > written(y)
    && !(f.onsetDay[y] >= 0 && Math.abs(f.onsetDay[x] - f.onsetDay[y]) < EPISODE_DAYS);
  // A vaccination after the other's onset: unless the narratives share half their words (a follow-up correcting the date repeats the text).
  // An onset before its own report's vaccination is no onset of that dose.
  const doseAfterOnset = (x: number, y: number): boolean => sure(f.onsetDay, f.onsetImputed, x) && sure(f.vaxDay, f.vaxImputed, y)
    && f.onsetDay[x] >= f.vaxDay[x] && f.vaxDay[y] - f.onsetDay[x] >= EPISODE_DAYS && jaccard(f.narrative[x], f.narrative[y]) < 0.5;
  if (laterOnset(a, b) || laterOnset(b, a) || doseAfterOnset(a, b) || doseAfterOnset(b, a)) return true;
  const exact = (day: Int32Array, imputed: Uint8Array): boolean => day[a] >= 0 && day[b] >= 0 && imputed[a] === 0 && imputed[b] === 0 && Math.abs(day[a] - day[b]) >= EPISODE_DAYS;
  if (exact(f.vaxDay, f.vaxImputed) && exact(f.onsetDay, f.onsetImputed)) return true;
  // Round 6: two vaccination dates DOSE_DAYS or more apart, neither possibly imputed, are two doses (one person's second
  // dose with its own reaction, or two persons), unless a narrative writes the other's vaccination date or the two
  // narratives share half their words (a follow-up correcting a date repeats the report's text).
  const named = (x: number, y: number): boolean => f.namedDays[x].includes(f.vaxDay[y]);
  return f.vaxDay[a] >= 0 && f.vaxDay[b] >= 0 && f.vaxImputed[a] === 0 && f.vaxImputed[b] === 0
    && Math.abs(f.vaxDay[a] - f.vaxDay[b]) >= DOSE_DAYS && !named(a, b) && !named(b, a)
    && jaccard(f.narrative[a], f.narrative[b]) < 0.5;
}

/** Vaccination dates this many days apart or more, neither possibly imputed, are two doses (twoEpisodes; round 6). */
export const DOSE_DAYS = 7;

/** Vaccination dates and onsets both this many days apart or more are two episodes (twoEpisodes). */
export const EPISODE_DAYS = 2;

/** VAERS_IDs at most this far apart were entered in one batch (one sender's mailing: a clinic's forms of several patients; 20 until round 4, where a batch of two 5-year-olds lay 21 apart). */
export const BATCH_IDS = 25;

/**
 * Whether reports `a` and `b` read as one report written twice, the individual evidence a batch's
 * pair needs (issue 43, round 4): narratives near identical (word-set Jaccard >= 0.8), or sharing
 * half their words with half the events in common, or the same events with some words (>= 0.2) in
 * common. Two patients of one clinic's mailing agree on age, day, vaccines and lots (one
 * campaign), not on what each one's form says.
 */
export function oneReport(f: LinkageFeatures, a: number, b: number): boolean {
  const text = jaccard(f.narrative[a], f.narrative[b]);
  const events = jaccard(f.events[a], f.events[b]);
  const noText = f.narrative[a].length === 0 && f.narrative[b].length === 0;
  return text >= 0.8 || (text >= 0.5 && events >= 0.5) || (events === 1 && (text >= 0.2 || noText));
}

/**
 * Whether two forms of one batch agree on what a form written twice repeats (issue 43 round 6):
 * the same vaccines (VAX_NAME), the same onset day when both give it, and narratives sharing half
 * their words (or none in either). A clinic's forms of a husband and wife (pneumococcal alone
 * against influenza and pneumococcal; onsets a day apart), of two residents of one home or of two
 * premature infants of one ward (one course told in other words) copy one text, not these.
 */
export function sameForm(f: LinkageFeatures, a: number, b: number): boolean {
  const onsets = f.onsetDay[a] < 0 || f.onsetDay[b] < 0 || f.onsetDay[a] === f.onsetDay[b];
  const text = jaccard(f.narrative[a], f.narrative[b]) >= 0.5 || (f.narrative[a].length === 0 && f.narrative[b].length === 0);
  return equal(f.vaccines[a], f.vaccines[b]) && onsets && text;
}

/**
 * Whether reports `a` and `b` name one patient and one visit outright (issue 43, weighed on the
 * labelled pairs): the same age (to 0.01 year) and sex, the same vaccination day (neither
 * possibly imputed) and onsets at most 3 days apart. Such a pair is not kept apart by one-sided
 * group wording or by vaccines and lots named otherwise (a follow-up names the other vaccines
 * given that day; a manufacturer's copy names its own lot): those vetoes stand only when the
 * identity is less than this.
 */
export function sameVisit(f: LinkageFeatures, a: number, b: number): boolean {
  const known = (x: number, y: number): boolean => x >= 0 && y >= 0;
  return Math.abs(f.age[a] - f.age[b]) <= 0.01 && f.sex[a] > 0 && f.sex[a] === f.sex[b]
    && known(f.vaxDay[a], f.vaxDay[b]) && f.vaxDay[a] === f.vaxDay[b] && f.vaxImputed[a] === 0 && f.vaxImputed[b] === 0
    && known(f.onsetDay[a], f.onsetDay[b]) && Math.abs(f.onsetDay[a] - f.onsetDay[b]) <= 3;
}

/**
 * The reason reports `a` and `b` are different patients, '' when nothing says so (see the module
 * header):
 * - `series`: two case numbers of one sender's series (sameSeries, given whether the narratives
 *   share half their words), or one number with two letter suffixes (otherSuffix), or two numbers
 *   of one sender for two patients (otherNumberedPatient: ages known, other vaccination dates or
 *   ages a year apart; round 6);
 * - `numbered` (round 9): the narratives label their patients otherwise ("Case 1", "Case 2";
 *   form-evidence.ts otherCaseLabels);
 * - `prior` (round 9): one report's PRIOR_VAX tells the other's reaction as an earlier dose's
 *   (form-evidence.ts citesReaction);
 * - `group`: either narrative written for a group (one-sided, issue 43: "three other female
 *   patients" in one report is enough), unless the two are a direct report and a sender's copy
 *   of it (one with a SPLTTYPE and one without, narratives sharing half their words: the copy
 *   repeats the text), carry one SPLTTYPE with ages within a year and one sex (a sender's case
 *   and its follow-up; a group report entered once per patient states no age) or name the same
 *   concomitant medicines (OTHER_MEDS words, Jaccard >= 0.5: one patient);
 * - `sibling`: either names a sibling or twin ("His brother had an adverse reaction"), or (round 9)
 *   both state HISTORY or PRIOR_VAX and one only names a sibling there (form-evidence.ts
 *   otherSiblingFields), with the same exception;
 * - `vaccination`: otherVaccination; for a pair naming one visit outright (sameVisit) only lots
 *   that name other vials (lotsDisagree, a lot one character off forgiven: a copy by hand);
 * - (`group` does not apply to a pair naming one visit outright either, unless the two carry two
 *   case numbers of one sender, oneSenderNumbers: two patients of the group, each reported;
 *   issue 43 round 4, "about 20 vaccinees", 22 and 21 months; or both narratives are written for
 *   the group, round 6);
 * - `doses` (round 7): one vaccine given in both with other dose numbers or on other sides
 *   (otherDosesOrSites), for two such vaccines, or for one when both are direct reports (no
 *   SPLTTYPE: one clinic's forms of twins or siblings; a copy by hand may slip once);
 * - `episode`: two vaccination episodes (twoEpisodes: one report's vaccination or onset after the
 *   other was received, or vaccination dates and onsets both EPISODE_DAYS or more apart, round 5;
 *   or vaccination dates DOSE_DAYS or more apart, neither narrative naming the other's date and
 *   the narratives sharing less than half their words, round 6; or, round 9, an onset after the
 *   day the other form was written, RPT_DATE, onsets EPISODE_DAYS or more apart, or a
 *   vaccination EPISODE_DAYS or more after the other's onset, narratives sharing less than half
 *   their words);
 * - `batch`: VAERS_IDs at most BATCH_IDS apart (one batch of forms) without the same SPLTTYPE,
 *   unless the two have the same age (to 0.01 year, both known), read as one report
 *   (oneReport: near-identical narratives, or the same events) and agree as one form written
 *   twice (sameForm: the same vaccines, the same onset, narratives sharing half their words;
 *   round 6; round 9: the numbers of the narrative with fewer all in the other, form-evidence.ts
 *   otherNumbers, and HISTORY not disagreeing, otherHistories): a clinic's batch holds its several patients, who share age, day, vaccines and lots
 *   but not their forms' text (round 4);
 * - `onset`: onset dates more than ONSET_DAYS apart, neither possibly imputed (features.ts onsetImputed);
 * - `medicines`: two lists of concomitant medicines with no word in common (otherMedicines);
 * - `measures`: both narratives measure the reaction ("13x15cm") with no number in common;
 * - `age`: the stated age, else AGE, of each conflict (agesConflict), or one's age lies outside
 *   the other's stated decade band, or two direct reports (no SPLTTYPE) state AGEs more than half
 *   a year apart without the same medicines (sameMedicines; a clinic's forms of one patient
 *   agree);
 * - `sex`: the pronouns of one against the SEX or pronouns of the other;
 * - `template`: both narratives shared near identically by TEMPLATE_SHARE or more other
 *   reports, both or neither with a SPLTTYPE, not the same SPLTTYPE, and not ages within a year
 *   and a sex known and agreeing in both.
 */
export function differentPatients(f: LinkageFeatures, e: PatientEvidence, a: number, b: number): string {
  const similar = jaccard(f.narrative[a], f.narrative[b]) >= 0.5;
  if (sameSeries(f.splttype[a], f.splttype[b], similar) || otherSuffix(f.splttype[a], f.splttype[b])) return 'series';
  if (otherNumberedPatient(f, a, b)) return 'series';
  // Round 9: "Case 1" and "Case 2" of one reporter; one report's PRIOR_VAX telling of the other's reaction (a later dose).
  if (otherCaseLabels(e.form, a, b)) return 'numbered';
  if (citesReaction(f, a, b)) return 'prior';
  // One SPLTTYPE and none: two senders (a manufacturer's copy of a direct report) may share a group's narrative;
  // one SPLTTYPE twice is one sender's case (its follow-up repeats the group's wording).
  const oneSender = (f.splttype[a] === '') === (f.splttype[b] === '');
  // One SPLTTYPE twice with the same age and sex: a sender's case and its follow-up (a group report entered once per patient keeps no age).
  const followUp = f.splttype[a] !== '' && f.splttype[a] === f.splttype[b] && Math.abs(f.age[a] - f.age[b]) <= 1 && f.sex[a] > 0 && f.sex[a] === f.sex[b];
  const copy = (!oneSender && similar) || followUp || sameMedicines(f, a, b);
  const visit = sameVisit(f, a, b);
  // One visit lifts the group wording, unless the two carry two case numbers of one sender (two patients of the group, each
  // reported) or both are written for the group (round 6: "1 of 2 pt from this facility" in each, each with its own course).
  if ((e.group[a] || e.group[b]) && !copy && !(visit && !oneSenderNumbers(f.splttype[a], f.splttype[b]) && !(e.group[a] && e.group[b]))) return 'group';
  // Round 9: HISTORY or PRIOR_VAX naming a sibling on one side only ("pt's sibling exp crying all noc"; both naming one: one twin's forms).
  if ((e.sibling[a] || e.sibling[b] || otherSiblingFields(f, e.form, a, b)) && !copy) return 'sibling';
  const ageA = Number.isNaN(e.statedAge[a]) ? f.age[a] : e.statedAge[a];
  const ageB = Number.isNaN(e.statedAge[b]) ? f.age[b] : e.statedAge[b];
  const stated = (Number.isNaN(e.statedAge[a]) ? 0 : 1) + (Number.isNaN(e.statedAge[b]) ? 0 : 1);
  if (!Number.isNaN(ageA) && !Number.isNaN(ageB) && agesConflict(ageA, ageB, stated)) return 'age';
  // Two direct reports (no SPLTTYPE) are a clinic's own forms: one patient's ages agree there (or the medicines name the patient).
  if (f.splttype[a] === '' && f.splttype[b] === '' && Math.abs(f.age[a] - f.age[b]) > 0.5 + 1e-9 && !sameMedicines(f, a, b)) return 'age';
  const outside = (age: number, band: number): boolean => !Number.isNaN(age) && !Number.isNaN(band) && (age < band - 1 || age >= band + 11);
  if (outside(ageA, e.ageBand[b]) || outside(ageB, e.ageBand[a]) || (!Number.isNaN(e.ageBand[a]) && !Number.isNaN(e.ageBand[b]) && e.ageBand[a] !== e.ageBand[b])) return 'age';
  // One visit forgives other vaccines named (a copy names its own) and a lot one character off (copied by hand), not another lot.
  if (visit ? lotsDisagree(f, a, b, true) : otherVaccination(f, a, b)) return 'vaccination';
  // Round 7: one vaccine's other dose or limb in two direct reports (a clinic's forms of twins), or for two vaccines in any two.
  const otherShots = otherDosesOrSites(f, a, b);
  if (otherShots >= 2 || (otherShots === 1 && f.splttype[a] === '' && f.splttype[b] === '')) return 'doses';
  if (twoEpisodes(f, a, b)) return 'episode';
  if (Math.abs(f.vaersId[a] - f.vaersId[b]) <= BATCH_IDS && !(f.splttype[a] !== '' && f.splttype[a] === f.splttype[b])
    && !(Math.abs(f.age[a] - f.age[b]) <= 0.01 && oneReport(f, a, b) && sameForm(f, a, b) && !otherNumbers(e.form, a, b) && !otherHistories(f, a, b))) return 'batch';
  if (f.onsetDay[a] >= 0 && f.onsetDay[b] >= 0 && f.onsetImputed[a] === 0 && f.onsetImputed[b] === 0 && Math.abs(f.onsetDay[a] - f.onsetDay[b]) > ONSET_DAYS) return 'onset';
  if (otherMedicines(f, a, b)) return 'medicines';
  const [ma, mb] = [e.measures[a], e.measures[b]];
  if (ma.length > 0 && mb.length > 0 && !ma.some((x) => mb.includes(x))) return 'measures';
  const sexA = f.sex[a] || e.pronounSex[a];
  const sexB = f.sex[b] || e.pronounSex[b];
  if ((e.pronounSex[a] && sexB && e.pronounSex[a] !== sexB) || (e.pronounSex[b] && sexA && e.pronounSex[b] !== sexA)) return 'sex';
  if (oneSender && e.templateShare[a] >= TEMPLATE_SHARE && e.templateShare[b] >= TEMPLATE_SHARE && (f.splttype[a] === '' || f.splttype[a] !== f.splttype[b])
    && !(Math.abs(ageA - ageB) <= 1 && f.sex[a] > 0 && f.sex[a] === f.sex[b])) return 'template';
  return '';
}
