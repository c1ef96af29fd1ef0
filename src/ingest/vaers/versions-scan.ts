/**
 * The first pass of the follow-up versions (versions.ts): the latest version of every report
 * with a follow-up, read from the VAX and SYMPTOMS files that have an `ORDER` column.
 */
import { UserError } from '../../domain/user-error.js';
import { readCsv } from './csv.js';
import { openMember, type VaersFolder } from './sources.js';
import { parseVaersId } from './values.js';
import { FollowUpVersions, parseVersion, VERSION_COLUMN } from './versions.js';

/** Thrown from a header without `ORDER` to leave the file there (never reaches the caller). */
class NoVersions extends UserError {
  constructor() {
    super('no ORDER column');
  }
}

/**
 * Reads the `VAERS_ID` and `ORDER` of every row of the folder's VAX and SYMPTOMS files that have
 * an `ORDER` column (a file without one is left after its header line) and notes each row's
 * version with the index of its group (reading order). Rows whose VAERS_ID is not an integer are
 * left to the second pass, which counts them.
 * @throws UserError as readCsv does (a corrupt file fails here, before the second pass).
 */
export async function noteVersions(folder: VaersFolder): Promise<FollowUpVersions> {
  const versions = new FollowUpVersions();
  for (const [group, { members }] of folder.groups.entries()) {
    for (const member of [members.VAX, members.SYMPTOMS]) {
      let idAt = -1;
      let versionAt = -1;
      const stages = await openMember(member, folder, () => undefined, null);
      try {
        await readCsv(stages, member.where, {
          onHeader: (columns) => {
            versionAt = columns.get(VERSION_COLUMN) ?? -1;
            idAt = columns.get('VAERS_ID') ?? -1;
            if (versionAt < 0 || idAt < 0) throw new NoVersions();
          },
          onRecord: (fields) => {
            const id = parseVaersId(fields[idAt]);
            if (id !== null) versions.note(id, parseVersion(fields[versionAt]), group);
          },
        });
      } catch (error) {
        if (!(error instanceof NoVersions)) throw error;
        stages[0].destroy();
      }
    }
  }
  return versions;
}
