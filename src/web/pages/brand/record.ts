import type { Response } from 'express';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { dataView, operationForm } from '../../kit.js';

export interface EditableRecord {
  title: string;
  details: Record<string, unknown>;
  updatedAt: string;
  /** The write operation that updates the record, and deletes it with `del: true`. */
  operationId: string;
  /** The record's id field and value, as the write operation names them. */
  id: Record<string, string>;
  fields: SafeHtml;
  noun: string;
}

/** One product or buyer profile: what is stored, a form to change it, a button to delete it. */
export function editableRecord(res: Response, record: EditableRecord): SafeHtml {
  return html`<h3>${record.title}</h3>
${dataView(record.details)}
<p class="muted">Last changed ${formatTime(record.updatedAt, res.locals.current!.timeZone)}.</p>
<details><summary>Edit ${record.title}</summary>
${operationForm(res, { operationId: record.operationId, hidden: record.id, fields: record.fields, button: `Save ${record.noun}` })}
</details>
${operationForm(res, { operationId: record.operationId, hidden: { ...record.id, del: true }, button: `Delete ${record.title}`, buttonClass: 'danger' })}`;
}
