-- 010_packed_brand_figures: an account's per-brand running totals (ads_account_brand_days) as
-- one packed row of integers per day instead of three JSON arrays.
--
-- figures: for brand i of ads_grants.figure_brands, its occurrences, duration_ms and human_ms
-- through that day, each a big-endian int8, at bytes 24 i to 24 i + 23, kept as base64 text. A
-- summary reads two of these rows (the last day and the day before the first) and the service
-- decodes them natively (Uint8Array.fromBase64, then lib/encoding.ts readInt64). Parsing the
-- same figures from six JSON arrays of a thousand numbers was a sixth of a summary's time in the
-- service, and the numbers it made were garbage at once. Text, encoded once when written: bytea
-- would be encoded again by PostgreSQL on every read. Stored out of line uncompressed, so
-- reading them decompresses nothing.

-- First the admin commands' lock, as grant and approval take it before writing these rows.
select pg_advisory_xact_lock(122519921164290);

alter table ads_account_brand_days add column figures text;
alter table ads_account_brand_days alter column figures set storage external;
update ads_account_brand_days
   set figures = coalesce(
         (select translate(encode(string_agg(int8send(f.o::int8) || int8send(f.d::int8) ||
                                               int8send(f.h::int8), '' order by f.n), 'base64'),
                           E'\n', '')
            from rows from (json_array_elements_text(occurrences),
                            json_array_elements_text(duration_ms),
                            json_array_elements_text(human_ms)) with ordinality as f(o, d, h, n)),
         '');
alter table ads_account_brand_days
  drop column occurrences,
  drop column duration_ms,
  drop column human_ms,
  alter column figures set not null;
