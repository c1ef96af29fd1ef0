/**
 * Sponsor matching for `/pipeline` (spec 4.2: "trimmed, then matched against the lead sponsor
 * name. A family name that contains it counts. Not expanded to other companies").
 *
 * Rule: a name matches when the query's words appear in it as consecutive whole words. Words
 * are maximal runs of letters and digits (Unicode), compared case- and accent-insensitively;
 * punctuation and spacing are ignored. "Pfizer" matches "Pfizer" and "Pfizer Inc." but not
 * "Pfizerville Labs"; "Merck Sharp & Dohme" matches "Merck Sharp & Dohme LLC". No synonyms,
 * no parent/subsidiary mapping. The same rule is sent upstream as an Essie phrase
 * (`AREA[...]EXPANSION[Term]"words"`, see ctgov.ts) and re-checked locally on every row.
 */

/** Lower-cased, accent-stripped words of `text` (runs of Unicode letters/digits). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** True when `needle` (non-empty) occurs in `haystack` as a run of consecutive elements. */
export function containsWords(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** True when the sponsor `name` contains the query words (see module rule). */
export function nameMatches(name: string | null | undefined, queryWords: readonly string[]): boolean {
  return typeof name === 'string' && containsWords(words(name), queryWords);
}

/**
 * The role the sponsor holds in a study, or `null` when it holds none of the requested role:
 * - `lead`: the lead sponsor name matches;
 * - `collaborator`: a collaborator name matches and the lead sponsor name does not;
 * - `any`: `lead` if the lead name matches, else `collaborator` if a collaborator name matches.
 */
export function roleInStudy(
  requested: 'lead' | 'collaborator' | 'any',
  leadSponsor: string | null,
  collaborators: readonly string[],
  queryWords: readonly string[],
): 'lead' | 'collaborator' | null {
  const isLead = nameMatches(leadSponsor, queryWords);
  if (requested === 'lead') return isLead ? 'lead' : null;
  const isCollaborator = collaborators.some((c) => nameMatches(c, queryWords));
  if (requested === 'collaborator') return !isLead && isCollaborator ? 'collaborator' : null;
  if (isLead) return 'lead';
  return isCollaborator ? 'collaborator' : null;
}
