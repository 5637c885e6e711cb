-- Hand-written: drizzle cannot declare a character set or collation, so the
-- database default is set before any table exists and every table and column
-- inherits it. utf8mb4 stores emoji and all of Unicode; the binary collation
-- returns and compares strings byte for byte (e-mails are stored lower case,
-- so case-insensitive comparison needs no help from the collation).
ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
