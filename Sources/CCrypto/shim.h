// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 and HMAC-SHA256 for the Storage module's AWS
// Signature Version 4 signer (one-shot SHA256/HMAC and the EVP digest calls, none deprecated in 3.0).
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
