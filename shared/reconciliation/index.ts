/** The reconciliation module's front door: what other modules and the operator's tools may use (the reconciler). */
export { reconcile } from './reconcile.service.ts';
