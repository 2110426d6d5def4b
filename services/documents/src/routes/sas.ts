import { Envelope, uuidv7 } from '@platform/kit';
import { checkUnregistered } from '../commands/documents.ts';
import { mintBlobName } from '../domain/blob-names.ts';
import { checkMinted, resolveLocation, uploadSasTtl } from '../domain/documents.ts';
import { safeFilename } from '../domain/filenames.ts';
import { SasRequest, SasResponse } from '../schemas/documents.ts';
import { LOCATION_REFUSALS, type Routes, requireStorage, route } from './deps.ts';

export const sasRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/documents/sas',
    action: 'mint_sas',
    command: false,
    tags: ['documents'],
    summary: 'Mint a time-limited write URL (SAS) for an upload; renew one by sending its blob_name',
    description:
      'Not a command: no Idempotency-Key, nothing written, a bare body. Without blob_name the service ' +
      'chooses a new {stem}_{uuidv7}.{ext}; with an earlier, still unregistered blob_name it signs that blob again. ' +
      'The URL may create and write that one blob (sp=cw, sr=b), never read, list or delete. 422: ' +
      'unsafe_filename, filename_extension_required, unknown_storage_account, visibility_mismatch, ' +
      'container_required, unknown_container, blob_not_service_minted. 409 blob_already_registered (a document ' +
      'records this blob_name, in any container). 503 storage_not_configured.',
    body: SasRequest,
    response: Envelope(SasResponse),
    errors: LOCATION_REFUSALS,
    handler: async ({ body, reply }, deps) => {
      const storage = requireStorage(deps);
      const file = safeFilename(body.filename, 'body/filename');
      const { account, container } = resolveLocation(body, (n) => storage.account(n), 'body/');
      const now = deps.clock();
      let blobName: string;
      if (body.blob_name === undefined) {
        blobName = mintBlobName(file, uuidv7(now.getTime()));
      } else {
        // A renewal: the same blob signed again while no document records it.
        checkMinted(body.blob_name, 'body/blob_name');
        await checkUnregistered(deps.database.db, body.blob_name);
        blobName = body.blob_name;
      }
      const signed = storage.uploadSas(account.name, container, blobName, {
        ttlSeconds: uploadSasTtl(body.ttl_seconds, account),
        now,
      });
      return reply.envelope({
        sas_url: signed.url,
        sas_expires_at: signed.expiresAt.toISOString(),
        storage_account: account.name,
        visibility: account.visibility,
        container,
        blob_name: blobName,
        filename: body.filename,
      });
    },
  }),
];
