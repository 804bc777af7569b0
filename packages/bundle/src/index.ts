export { type BundleOptions, type BundleResult, bundleBin } from './bundle.js';
export { type BundledPackage, bundledPackages, renderNotices } from './notices.js';
