// The public TLS listener's CA, kept in a data directory so that a trust set up once (REQUESTS_CA_BUNDLE,
// NODE_EXTRA_CA_CERTS, a system store) keeps working across restarts (docs/tls.md). Made at first need; made
// anew only when its files are missing, unreadable or the certificate is about to expire. Which directory is a
// setting (src/settings.ts, `defaultDataDir`).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportPrivateKey, loadCertificateAuthority, makeCertificateAuthority, type CertificateAuthority } from './certificates.js';

export const CA_CERTIFICATE_FILE = 'ca.pem';
const CA_KEY_FILE = 'ca-key.pem';
const CA_NAME = 'platform-emulator local CA';
const CA_VALIDITY_DAYS = 10 * 365;
/** A CA this close to its end is replaced: a server certificate signed by it would not last a working week. */
const RENEW_BEFORE_MS = 7 * 24 * 3_600_000;

export const caCertificatePath = (dataDir: string): string => join(dataDir, CA_CERTIFICATE_FILE);

async function readCa(dataDir: string): Promise<CertificateAuthority | undefined> {
  try {
    const [certificate, key] = await Promise.all([readFile(caCertificatePath(dataDir), 'utf8'), readFile(join(dataDir, CA_KEY_FILE), 'utf8')]);
    const ca = await loadCertificateAuthority(certificate, key);
    return ca.notAfter.getTime() - Date.now() > RENEW_BEFORE_MS ? ca : undefined;
  } catch {
    return undefined; // missing or damaged: made anew
  }
}

/** Writes through a temporary file and a rename, so that a reader never sees half a file. */
async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode });
  await rename(temporary, path);
}

/** The CA of `dataDir`: the one kept there, else a new one, written there (its key readable by the owner only). */
export async function persistentCa(dataDir: string): Promise<CertificateAuthority> {
  const kept = await readCa(dataDir);
  if (kept) return kept;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const ca = await makeCertificateAuthority(CA_NAME, CA_VALIDITY_DAYS, true);
  // The key first: a certificate on disk always has its key beside it.
  await writeAtomically(join(dataDir, CA_KEY_FILE), await exportPrivateKey(ca.privateKey), 0o600);
  await writeAtomically(caCertificatePath(dataDir), ca.certificate, 0o644);
  return ca;
}
