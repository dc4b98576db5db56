// The core runs where a worker's globals are, plus the page's Web Storage
// (store.js forgets what the pages noted there): what tsc may assume of it.
declare var localStorage: Storage;
declare var sessionStorage: Storage;
