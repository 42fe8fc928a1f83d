// Free-form name/value pairs of a record (headers, span and log attributes) as monospace facts,
// and the drawer section that titles them and says when there are none.
import styles from "./Data.module.css";

type Entries = readonly (readonly [string, string])[];

/** The pairs as `dt`/`dd` rows, to sit inside a facts list beside fixed facts or on their own. */
export function NamedValueRows({ entries }: { entries: Entries }) {
  return (
    <>
      {entries.map(([name, value]) => (
        <div key={name} className={styles.inlineFilters}>
          <dt className={styles.mono}>{name}</dt>
          <dd className={styles.mono}>{value}</dd>
        </div>
      ))}
    </>
  );
}

/** A titled section of pairs; `none` is what it says when the record carries none. */
export function NamedValuesSection({
  title,
  label,
  entries,
  none,
}: {
  title: string;
  /** The section's accessible name, when it differs from its title. */
  label?: string;
  entries: Entries;
  none: string;
}) {
  return (
    <section className={styles.drawerSection} aria-label={label ?? title}>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className={styles.updating}>{none}</p>
      ) : (
        <dl className={styles.facts}>
          <NamedValueRows entries={entries} />
        </dl>
      )}
    </section>
  );
}
