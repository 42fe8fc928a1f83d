// The one table style (semantic <table> markup stays in each page), and the header of a column
// that holds only buttons: named for screen readers, blank on screen.
import styles from "./Table.module.css";

export const table = styles;

export function HiddenHeader({ label }: { label: string }) {
  return (
    <th scope="col">
      <span className="visually-hidden">{label}</span>
    </th>
  );
}
