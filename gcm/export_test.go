package gcm

// randomNonceMode is the nonce size that asks a path for NewWithRandomNonce.
const randomNonceMode = randomNonce
