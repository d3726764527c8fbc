/**
 * The dashboard module's front door (the pages' kit other pages reuse): all that other modules may use of it,
 * besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { Money, Status, Time } from './kit/format.tsx';
export { Csrf, Empty, Field, merchantPath, Notice, Page, type PageContext, PageHead, SecretOnce, SelectField, SignOut, Table } from './kit/layout.tsx';
export { dashboardCsp, noSoonerThan, pageContext, pageReply, seeOther, withDone } from './kit/page.ts';
export { ListPager, PAGE_SIZE, PastTheEnd, pageNumber } from './customers/paging.tsx';
export { orDoneAlready } from './kit/done-already.ts';
