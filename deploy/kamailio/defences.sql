-- The defences database (run.sh creates it): htable's dbmode=1 writes the `trusted` table (each
-- source whose credentials were accepted, and when) when Kamailio stops and reads it back when it
-- starts. Columns as htable reads them (Debian's htable-create.sql, under the table's own name).
CREATE TABLE trusted (
    id INTEGER PRIMARY KEY NOT NULL,
    key_name VARCHAR(64) DEFAULT '' NOT NULL,
    key_type INTEGER DEFAULT 0 NOT NULL,
    value_type INTEGER DEFAULT 0 NOT NULL,
    key_value VARCHAR(128) DEFAULT '' NOT NULL,
    expires INTEGER DEFAULT 0 NOT NULL
);
INSERT INTO version (table_name, table_version) VALUES ('trusted', '2');
