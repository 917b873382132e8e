import { describe, expect, it } from "vitest";
import { redactSecrets } from "./index.js";

describe("redactSecrets on command-line passwords", () => {
  it.each([
    ["mysql -h db -u root -pMyS3cretPw shop", "mysql -h db -u root -p[REDACTED] shop"],
    [
      "mysqldump -uroot -p'dump pass' --all-databases",
      "mysqldump -uroot -p'[REDACTED]' --all-databases",
    ],
    ["/usr/bin/mariadb -pMaria7pw", "/usr/bin/mariadb -p[REDACTED]"],
    ["mysql --password=Cl1Passw0rd -h db", "mysql --password=[REDACTED] -h db"],
    ["PGPASSWORD=pgs3cretval psql -h db -U app", "PGPASSWORD=[REDACTED] psql -h db -U app"],
    ["MYSQL_PWD=myPwd9876 mysql -u app", "MYSQL_PWD=[REDACTED] mysql -u app"],
    [
      "curl -u ada:curlpa55word https://api.example.org",
      "curl -u ada:[REDACTED] https://api.example.org",
    ],
    [
      "sshpass -p 'Sshp4ssw0rd' ssh -p 2222 deploy@host",
      "sshpass -p '[REDACTED]' ssh -p 2222 deploy@host",
    ],
    ["sshpass -pSshp4ssw0rd2 scp a host:", "sshpass -p[REDACTED] scp a host:"],
    ["SSHPASS=envSshPw55 sshpass -e ssh host", "SSHPASS=[REDACTED] sshpass -e ssh host"],
    ["redis-cli -h cache -a r3disPass info", "redis-cli -h cache -a [REDACTED] info"],
    [
      "docker login -u ci -p d0ckerPat99 registry.example.org",
      "docker login -u ci -p [REDACTED] registry.example.org",
    ],
    [
      "sqlcmd -S db -U sa -P 'Sq1Pass!' -Q 'select 1'",
      "sqlcmd -S db -U sa -P '[REDACTED]' -Q 'select 1'",
    ],
    [
      "mongosh -u admin -p m0ngoPw77 --authenticationDatabase admin",
      "mongosh -u admin -p [REDACTED] --authenticationDatabase admin",
    ],
    ["smbclient //nas/share -U ada%sambaPw42", "smbclient //nas/share -U ada%[REDACTED]"],
    [
      "openssl pkcs12 -export -in c.pem -passout pass:exp0rtPw",
      "openssl pkcs12 -export -in c.pem -passout pass:[REDACTED]",
    ],
    [
      "git clone https://ada:ghtoken1234abcd@git.example.org/team/app.git",
      "git clone https://ada:[REDACTED]@git.example.org/team/app.git",
    ],
    [
      "git remote add ci https://x-access-token:ciT0ken42@git.example.org/team/app.git",
      "git remote add ci https://x-access-token:[REDACTED]@git.example.org/team/app.git",
    ],
    ["mysql -u root \\\n  -pLin3Cont db", "mysql -u root \\\n  -p[REDACTED] db"],
  ])("%s", (command, expected) => {
    expect(redactSecrets(command)).toBe(expected);
  });

  it.each([
    "mysql -u root -p shop",
    "mysql -h db -P 3306 -u app -p",
    "mysql --password-file /run/secrets/db",
    "pg_dump --password-file=/run/secrets/pg app",
    "docker run -p 8080:80 nginx",
    "ssh -p 2222 deploy@host",
    "psql -h db -p 5432 -U app",
    "redis-cli -p 6379 ping",
    "cp -p a b && tar -cpf x.tar dir",
    "openssl pkcs12 -export -in c.pem -passout env:EXPORT_PASS",
    "openssl rsa -in k.pem -passin file:/run/secrets/k",
    "Enter password: ",
    "Use -p to give the password, or --password-stdin.",
    "mysql> SELECT 1;",
  ])("leaves %j alone", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
