-- The spool database (run.sh creates it): mqueue's dbmode=1 writes what each queue holds when
-- Kamailio stops and reads it back (then empties the table) when it starts. Columns as mqueue
-- reads them: key and val, in id order.
CREATE TABLE calls (id INTEGER PRIMARY KEY AUTOINCREMENT, key VARCHAR(128) NOT NULL, val TEXT NOT NULL);
CREATE TABLE calls_inflight (id INTEGER PRIMARY KEY AUTOINCREMENT, key VARCHAR(128) NOT NULL, val TEXT NOT NULL);
CREATE TABLE rejections (id INTEGER PRIMARY KEY AUTOINCREMENT, key VARCHAR(128) NOT NULL, val TEXT NOT NULL);
CREATE TABLE rejections_inflight (id INTEGER PRIMARY KEY AUTOINCREMENT, key VARCHAR(128) NOT NULL, val TEXT NOT NULL);
