import {
  BlobSASPermissions,
  BlobServiceClient,
  type ContainerClient,
  generateBlobSASQueryParameters,
  newPipeline,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import { unavailable } from '../errors.ts';
import type { StorageAccount, StorageCatalog } from './catalog.ts';

/** A signed, time-limited URL to one blob. */
export interface SignedUrl {
  url: string;
  /** When the signature stops working (whole seconds: SAS expiry has no finer grain). */
  expiresAt: Date;
}

export interface BlobStorageOptions {
  /** Attempts per storage call (the first included); the SDK backs off between them. */
  maxTries?: number;
  /** Limit of one attempt. */
  tryTimeoutMs?: number;
}

/** A blob as a listing shows it: its name and when it was last written (every upload or overwrite moves it). */
export interface ListedBlob {
  name: string;
  lastModified: Date;
}

/** Expiry `ttlSeconds` after `now`, cut to whole seconds as the SAS carries it. */
const expiry = (now: Date, ttlSeconds: number) => new Date(Math.floor(now.getTime() / 1000) * 1000 + ttlSeconds * 1000);

/**
 * Blob storage over a storage catalog: SAS minting (signed locally with the account key, no
 * request to storage), blob properties (a HEAD: the bytes themselves are never read), listing
 * and deleting blobs (documents' orphan reaper), and container set-up. A storage that cannot be reached is an AppError 503 `storage_unavailable`.
 */
export class BlobStorage {
  private readonly byName: Map<string, { account: StorageAccount; service: BlobServiceClient }>;

  constructor(
    readonly catalog: StorageCatalog,
    opts: BlobStorageOptions = {},
  ) {
    this.byName = new Map(
      catalog.accounts.map((account) => {
        const credential = new StorageSharedKeyCredential(account.account_name, account.key);
        const pipeline = newPipeline(credential, {
          retryOptions: {
            maxTries: opts.maxTries ?? 3,
            tryTimeoutInMs: opts.tryTimeoutMs ?? 10_000,
            retryDelayInMs: 100,
            maxRetryDelayInMs: 1000,
          },
        });
        return [account.name, { account, service: new BlobServiceClient(account.endpoint, pipeline) }];
      }),
    );
  }

  /** The catalog's account of that name. */
  account(name: string): StorageAccount | undefined {
    return this.byName.get(name)?.account;
  }

  private entry(name: string) {
    const found = this.byName.get(name);
    if (!found) throw unavailable('storage_unavailable', `Storage account ${name} is not configured`);
    return found;
  }

  private container(account: string, container: string): ContainerClient {
    return this.entry(account).service.getContainerClient(container);
  }

  private sign(account: string, container: string, blob: string, permissions: string, now: Date, ttlSeconds: number) {
    const { account: a } = this.entry(account);
    const expiresAt = expiry(now, ttlSeconds);
    const sas = generateBlobSASQueryParameters(
      {
        containerName: container,
        blobName: blob,
        permissions: BlobSASPermissions.parse(permissions),
        expiresOn: expiresAt,
      },
      new StorageSharedKeyCredential(a.account_name, a.key),
    ).toString();
    return { url: `${this.container(account, container).getBlobClient(blob).url}?${sas}`, expiresAt };
  }

  /** A write-only (create + write) SAS for uploading one blob. */
  uploadSas(account: string, container: string, blob: string, opts: { ttlSeconds: number; now?: Date }): SignedUrl {
    return this.sign(account, container, blob, 'cw', opts.now ?? new Date(), opts.ttlSeconds);
  }

  /** A read-only SAS for one blob, valid for the account's SAS lifetime unless told otherwise. */
  readSas(account: string, container: string, blob: string, opts: { ttlSeconds?: number; now?: Date } = {}): SignedUrl {
    const ttl = opts.ttlSeconds ?? this.entry(account).account.sas_ttl_seconds;
    return this.sign(account, container, blob, 'r', opts.now ?? new Date(), ttl);
  }

  /**
   * The blob's size, or null when the container holds no such blob. Only the blob's properties
   * are read (HEAD), never its content.
   */
  async properties(account: string, container: string, blob: string): Promise<{ size: number } | null> {
    const client = this.container(account, container).getBlobClient(blob);
    try {
      const p = await client.getProperties();
      return { size: p.contentLength ?? 0 };
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw unavailable('storage_unavailable', `Storage account ${account} cannot be reached`);
    }
  }

  /**
   * The container's committed blobs, one page of at most `pageSize` at a time, in name order.
   * Uncommitted uploads (staged blocks) are not listed: they are no blob yet.
   */
  async *listBlobs(account: string, container: string, opts: { pageSize: number }): AsyncGenerator<ListedBlob[]> {
    const pages = this.container(account, container).listBlobsFlat().byPage({ maxPageSize: opts.pageSize });
    for (;;) {
      let page: Awaited<ReturnType<typeof pages.next>>;
      try {
        page = await pages.next();
      } catch {
        throw unavailable('storage_unavailable', `Storage account ${account} cannot be reached`);
      }
      if (page.done) return;
      yield page.value.segment.blobItems.map((b) => ({ name: b.name, lastModified: b.properties.lastModified }));
    }
  }

  /** Deletes one blob (its snapshots too); false when there was none. */
  async deleteBlob(account: string, container: string, blob: string): Promise<boolean> {
    try {
      const r = await this.container(account, container)
        .getBlobClient(blob)
        .deleteIfExists({ deleteSnapshots: 'include' });
      return r.succeeded;
    } catch {
      throw unavailable('storage_unavailable', `Storage account ${account} cannot be reached`);
    }
  }

  /** Creates every configured container that does not exist yet (local Azurite, tests). */
  async ensureContainers(): Promise<void> {
    for (const { account, service } of this.byName.values()) {
      for (const container of account.containers) {
        try {
          await service.getContainerClient(container).createIfNotExists();
        } catch {
          throw unavailable('storage_unavailable', `Storage account ${account.name} cannot be reached`);
        }
      }
    }
  }
}
