/** Request bodies: JSON, or a multipart form with one file part (docs/api-contract.md: "Encodings"). */

export type Body =
  | { type: 'json'; value: unknown }
  | {
      type: 'multipart';
      /** Form fields in order; a repeated name is sent repeatedly. */
      fields: Array<[string, string]>;
      /** The file part, sent as the `dataFile` field. */
      file: { name: string; content: string | Uint8Array; type: string };
    };

/** A body ready to send: its bytes (or text) and its `content-type`. */
export interface EncodedBody {
  data?: string | Buffer;
  contentType?: string;
}

/** Encode a body with its `content-type`. @throws what the platform's form encoder throws */
export async function encodeBody(body: Body | undefined): Promise<EncodedBody> {
  if (!body) return {};
  if (body.type === 'json') return { data: JSON.stringify(body.value), contentType: 'application/json' };
  const form = new FormData();
  for (const [k, v] of body.fields) form.append(k, v);
  // A copy into a fresh ArrayBuffer-backed view (a Blob part may not be a SharedArrayBuffer view).
  const bytes = Uint8Array.from(
    typeof body.file.content === 'string' ? Buffer.from(body.file.content, 'utf8') : body.file.content,
  );
  form.append('dataFile', new Blob([bytes], { type: body.file.type }), body.file.name);
  const request = new Request('http://multipart.invalid/', { method: 'POST', body: form });
  return {
    data: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? 'multipart/form-data',
  };
}
