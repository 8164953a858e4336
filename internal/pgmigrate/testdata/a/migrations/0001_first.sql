CREATE TABLE pgmigrate_t (n integer NOT NULL);
INSERT INTO pgmigrate_t VALUES (1);
