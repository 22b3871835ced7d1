// X.509 material made in process with @peculiar/x509 on Node's WebCrypto: a CA, and a server certificate for
// the loopback names signed by it. Shared by the in-pod runtime listener (a fresh CA at each start, its key never
// extractable) and the public TLS listener (a CA kept across restarts: docs/tls.md). No openssl child process.
//
// The extensions are those a strict verifier asks for (Python 3.13's VERIFY_X509_STRICT among them): a critical
// basicConstraints and keyUsage on the CA, subject and authority key identifiers, and on the server certificate
// the serverAuth usage and subjectAltName entries for 127.0.0.1, ::1 and localhost.
import { randomBytes, webcrypto } from 'node:crypto';

import type * as X509Module from '@peculiar/x509';

type X509 = typeof X509Module;

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const crypto = webcrypto as unknown as Crypto;

/** A CA able to sign: its certificate (PEM, public) and its private key (in memory). */
export interface CertificateAuthority {
  certificate: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** When the CA certificate stops being valid. */
  notAfter: Date;
}

export interface ServerTlsMaterial {
  /** The server certificate, PEM. */
  certificate: string;
  /** Its private key, PKCS #8 PEM: kept in memory, given only to a TLS listener. */
  privateKey: string;
}

let loading: Promise<X509> | undefined;

/** The library, loaded on first use: only a TLS listener needs it (~90 ms unbundled). */
export function x509(): Promise<X509> {
  return (loading ??= (async () => {
    // tsyringe, under @peculiar/x509, wants the Reflect metadata polyfill loaded first.
    await import('reflect-metadata');
    const loaded = await import('@peculiar/x509');
    // Bundled (esbuild picks the package's CommonJS build), the exports arrive under `default`.
    const lib = 'cryptoProvider' in loaded && loaded.cryptoProvider ? loaded : (loaded as unknown as { default: X509 }).default;
    lib.cryptoProvider.set(crypto);
    return lib;
  })());
}

/** A positive 128-bit serial number (RFC 5280 §4.1.2.2), as hex. */
const serialNumber = (): string => {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
};

/** A new self-signed CA. With `extractable`, its private key can be exported (to be kept on disk). */
export async function makeCertificateAuthority(name: string, validityDays: number, extractable: boolean): Promise<CertificateAuthority> {
  const lib = await x509();
  // Real time, not the emulator's movable clock: TLS clients check validity against their own clock.
  const notBefore = new Date(Date.now() - HOUR_MS);
  const notAfter = new Date(Date.now() + validityDays * DAY_MS);
  const keys = (await crypto.subtle.generateKey(ECDSA, extractable, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await lib.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${name}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: ECDSA,
    extensions: [
      new lib.BasicConstraintsExtension(true, 0, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign, true),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: ca.toString('pem'), privateKey: keys.privateKey, publicKey: keys.publicKey, notAfter };
}

/** The CA's private key as PKCS #8 PEM (for a CA made extractable). */
export async function exportPrivateKey(key: CryptoKey): Promise<string> {
  const lib = await x509();
  return lib.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

/** A CA read back from its certificate and PKCS #8 key (PEM); throws when either does not parse. */
export async function loadCertificateAuthority(certificatePem: string, privateKeyPem: string): Promise<CertificateAuthority> {
  const lib = await x509();
  const certificate = new lib.X509Certificate(certificatePem);
  const der = lib.PemConverter.decodeFirst(privateKeyPem);
  const privateKey = await crypto.subtle.importKey('pkcs8', der, ECDSA, false, ['sign']);
  const publicKey = await certificate.publicKey.export(ECDSA, ['verify'], crypto);
  return { certificate: certificate.toString('pem'), privateKey, publicKey, notAfter: certificate.notAfter };
}

/** A server certificate for 127.0.0.1, ::1 and localhost, signed by `ca`, valid `validityDays` (within the CA's). */
export async function issueServerCertificate(ca: CertificateAuthority, validityDays: number): Promise<ServerTlsMaterial> {
  const lib = await x509();
  const issuer = new lib.X509Certificate(ca.certificate);
  const notBefore = new Date(Date.now() - HOUR_MS);
  const notAfter = new Date(Math.min(Date.now() + validityDays * DAY_MS, ca.notAfter.getTime()));
  const keys = (await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const server = await lib.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=127.0.0.1',
    issuer: issuer.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    signingAlgorithm: ECDSA,
    extensions: [
      new lib.BasicConstraintsExtension(false, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature, true),
      new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
      new lib.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await lib.AuthorityKeyIdentifierExtension.create(ca.publicKey),
    ],
  });
  return { certificate: server.toString('pem'), privateKey: await exportPrivateKey(keys.privateKey) };
}
