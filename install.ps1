<#
.SYNOPSIS
  AsAt installer (Windows, PowerShell 5.1 or 7): runs the product in Docker containers.

.DESCRIPTION
  Checks Docker and Compose v2, asks for an API key (Enter = fully local), writes .env, builds
  and starts everything (docker compose -f docker-compose.dev.yml up -d --build), waits until
  every service is healthy and prints where to go. Re-running it updates: it rebuilds the
  images from this checkout and restarts what changed. .env is written once and kept (keys
  that .env.example gained since are appended; no value is ever overwritten). The same steps
  as install.sh.

  Exit codes: 0 running; 1 bad answer; 2 no Docker; 3 no Compose v2; 4 Docker not running;
  5 a service failed or was not healthy in time; 6 the corpus is not found.

.EXAMPLE
  powershell -ExecutionPolicy Bypass -File .\install.ps1
  powershell -ExecutionPolicy Bypass -File .\install.ps1 -Local
#>
[CmdletBinding()]
param(
    [switch]$Local,     # no questions: extractive answers, no key
    [switch]$NoStart    # write or update .env only
)

Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

$ComposeFileName = 'docker-compose.dev.yml'
$EnvFile = '.env'
$ExampleFile = '.env.example'
# Services that run once and exit (restart: "no" in the compose file); the rest must be healthy.
$OneShotServices = @('audit-migrate', 'audit-keygen', 'ingest-build', 'extraction-migrate', 'accounts-migrate')
# Secrets generated once (random hex) when empty in .env: the database passwords and the service token.
$PasswordKeys = @('ASAT_POSTGRES_SUPERUSER_PASSWORD', 'ASAT_DB_OWNER_PASSWORD', 'ASAT_DB_APP_PASSWORD', 'ASAT_SERVICE_TOKEN')
$Providers = @('aggregator', 'openai_compatible')
$HealthTimeout = if ($env:ASAT_INSTALL_TIMEOUT) { [int]$env:ASAT_INSTALL_TIMEOUT } else { 900 }
$PollSeconds = if ($env:ASAT_INSTALL_POLL_SECONDS) { [double]$env:ASAT_INSTALL_POLL_SECONDS } else { 5 }

function Stop-Install([int]$Code, [string[]]$Lines) {
    [Console]::Error.WriteLine("error: " + $Lines[0])
    foreach ($line in $Lines | Select-Object -Skip 1) { [Console]::Error.WriteLine($line) }
    exit $Code
}

function Invoke-Compose {
    & docker compose -f $ComposeFileName @args
}

function Test-Docker {
    if (-not (Get-Command docker -ErrorAction SilentlyContinue)) {
        Stop-Install 2 @(
            "Docker is not installed: there is no 'docker' command on PATH.",
            "  Windows: install Docker Desktop (https://docs.docker.com/desktop/) and start it.",
            "Then run .\install.ps1 again.")
    }
    $version = (& docker compose version --short 2>$null)
    if ($LASTEXITCODE -ne 0 -or -not $version) {
        Stop-Install 3 @(
            "Docker Compose v2 is missing: 'docker compose version' failed.",
            "  Docker Desktop ships it: update Docker Desktop.",
            "  The old standalone 'docker-compose' (v1) is not supported.",
            "Then run .\install.ps1 again.")
    }
    $version = "$version".Trim().TrimStart('v')
    $major = 0
    if (-not [int]::TryParse($version.Split('.')[0], [ref]$major) -or $major -lt 2) {
        Stop-Install 3 @(
            "Docker Compose v2 or later is needed; 'docker compose version' says $version.",
            "  Update Docker Desktop, then run .\install.ps1 again.")
    }
    & docker info *> $null
    if ($LASTEXITCODE -ne 0) {
        Stop-Install 4 @(
            "Docker is installed but not running ('docker info' failed).",
            "  Start Docker Desktop and wait until it says it is running.",
            "Then run .\install.ps1 again.")
    }
    Write-Host "Docker and Compose ${version}: ok"
}

# The value of $Key in $Path ('' when absent or empty).
function Get-EnvValue([string]$Key, [string]$Path) {
    foreach ($line in Get-Content -LiteralPath $Path) {
        if ($line.StartsWith("$Key=")) { return $line.Substring($Key.Length + 1) }
    }
    return ''
}

function Test-EnvKey([string]$Key, [string]$Path) {
    foreach ($line in Get-Content -LiteralPath $Path) {
        if ($line.StartsWith("$Key=")) { return $true }
    }
    return $false
}

# Set KEY=VALUE in the file, in place, keeping every other line.
function Set-EnvValue([string]$Key, [string]$Value, [string]$Path) {
    $lines = foreach ($line in Get-Content -LiteralPath $Path) {
        if ($line.StartsWith("$Key=")) { "$Key=$Value" } else { $line }
    }
    Write-Lines $Path $lines
}

function Write-Lines([string]$Path, [string[]]$Lines) {
    # UTF-8 without a byte-order mark and LF line ends: what Compose reads on every platform.
    $text = ($Lines -join "`n") + "`n"
    [IO.File]::WriteAllText((Join-Path (Get-Location) $Path), $text, (New-Object Text.UTF8Encoding $false))
}

function Test-PlainValue([string]$Value) { return $Value -match '^[A-Za-z0-9._~+/=:-]*$' }

function New-RandomHex {
    $bytes = New-Object byte[] 24
    [Security.Cryptography.RandomNumberGenerator]::Create().GetBytes($bytes)
    return -join ($bytes | ForEach-Object { $_.ToString('x2') })
}

function Read-Answer([string]$Prompt, [switch]$Secret) {
    if ($Secret -and -not [Console]::IsInputRedirected) {
        $secure = Read-Host -Prompt $Prompt -AsSecureString
        $pointer = [Runtime.InteropServices.Marshal]::SecureStringToBSTR($secure)
        try { return [Runtime.InteropServices.Marshal]::PtrToStringBSTR($pointer) }
        finally { [Runtime.InteropServices.Marshal]::ZeroFreeBSTR($pointer) }
    }
    $answer = Read-Host -Prompt $Prompt
    if ($null -eq $answer) { return '' }
    return $answer.Trim()
}

# Returns @{ Provider; Model; BaseUrl; ApiKey }.
function Select-Provider([bool]$LocalOnly) {
    $choice = @{ Provider = 'extractive'; Model = ''; BaseUrl = ''; ApiKey = '' }
    if ($LocalOnly) { return $choice }
    Write-Host ''
    Write-Host 'AsAt answers fully locally by default: extractive answers that quote the law, no model, no key.'
    Write-Host 'With an API key it drafts answers with a hosted model (every quote is still verified).'
    $choice.ApiKey = Read-Answer 'API key (press Enter for fully local)' -Secret
    if (-not $choice.ApiKey) {
        Write-Host 'Fully local: ASAT_GENERATION_PROVIDER=extractive'
        return $choice
    }
    if (-not (Test-PlainValue $choice.ApiKey)) {
        Stop-Install 1 @(
            "the API key has characters .env cannot hold unquoted (spaces, quotes or `$);",
            "  write it into .env by hand as ASAT_GENERATION_API_KEY=... and run .\install.ps1 again.")
    }
    $provider = Read-Answer 'Provider: aggregator (OpenRouter-style router) or openai_compatible [aggregator]'
    if (-not $provider) { $provider = 'aggregator' }
    if ($Providers -notcontains $provider) {
        Stop-Install 1 @("unknown provider '$provider': answer aggregator or openai_compatible.")
    }
    $choice.Provider = $provider
    $choice.Model = Read-Answer 'Model id (as the provider names it)'
    if (-not $choice.Model) {
        Stop-Install 1 @('a model id is needed with an API key (or press Enter at the key prompt for fully local).')
    }
    if ($provider -eq 'openai_compatible') {
        $choice.BaseUrl = Read-Answer 'Base URL of the OpenAI-compatible API (e.g. http://host.docker.internal:8000/v1)'
        if (-not $choice.BaseUrl) { Stop-Install 1 @('openai_compatible needs a base URL.') }
    }
    else {
        $choice.BaseUrl = Read-Answer "Base URL (press Enter for the provider's default)"
    }
    if (-not (Test-PlainValue $choice.Model) -or -not (Test-PlainValue $choice.BaseUrl)) {
        Stop-Install 1 @("the model id or base URL has spaces, quotes or `$ in it.")
    }
    return $choice
}

# Append to .env the keys .env.example has and .env lacks (with the example's value).
function Add-MissingKeys {
    $added = @()
    $lines = @(Get-Content -LiteralPath $EnvFile)
    foreach ($line in Get-Content -LiteralPath $ExampleFile) {
        if ($line -match '^([A-Z][A-Z0-9_]*)=') {
            $key = $Matches[1]
            if (-not (Test-EnvKey $key $EnvFile)) {
                $lines += $line
                $added += $key
            }
        }
    }
    if ($added.Count -gt 0) {
        Write-Lines $EnvFile $lines
        Write-Host ("added to .env (new in .env.example): " + ($added -join ' '))
    }
}

function New-SecretKey {
    # An ASAT_SECRET_KEY value: key id k1 and 32 random bytes in base64.
    $bytes = New-Object byte[] 32
    [Security.Cryptography.RandomNumberGenerator]::Create().GetBytes($bytes)
    return 'k1:' + [Convert]::ToBase64String($bytes)
}

function Add-Passwords {
    foreach ($key in $PasswordKeys) {
        if (-not (Get-EnvValue $key $EnvFile)) { Set-EnvValue $key (New-RandomHex) $EnvFile }
    }
    if (-not (Get-EnvValue 'ASAT_SECRET_KEY' $EnvFile)) { Set-EnvValue 'ASAT_SECRET_KEY' (New-SecretKey) $EnvFile }
}

function Write-EnvFile([bool]$LocalOnly) {
    if (-not (Test-Path -LiteralPath $ExampleFile)) {
        Stop-Install 1 @("$ExampleFile is missing: run install.ps1 from an AsAt checkout.")
    }
    if (Test-Path -LiteralPath $EnvFile) {
        Write-Host 'keeping .env (delete it to answer the questions again)'
        Add-MissingKeys
    }
    else {
        $choice = Select-Provider $LocalOnly
        Write-Lines $EnvFile @(Get-Content -LiteralPath $ExampleFile)
        Set-EnvValue 'ASAT_GENERATION_PROVIDER' $choice.Provider $EnvFile
        Set-EnvValue 'ASAT_GENERATION_MODEL' $choice.Model $EnvFile
        Set-EnvValue 'ASAT_GENERATION_BASE_URL' $choice.BaseUrl $EnvFile
        Set-EnvValue 'ASAT_GENERATION_API_KEY' $choice.ApiKey $EnvFile
        Write-Host 'wrote .env'
    }
    Add-Passwords
}

# The corpus must be there before anything starts: an empty corpus would build an empty index.
function Test-Corpus {
    $dir = Get-EnvValue 'ASAT_CORPUS_HOST_DIR' $EnvFile
    if (-not $dir) { $dir = '../shared/corpus' }
    if (-not (Test-Path -LiteralPath (Join-Path $dir 'SOURCES.json'))) {
        Stop-Install 6 @(
            "the corpus is not at '$dir' (relative to $(Get-Location)): there is no SOURCES.json there.",
            "  Set ASAT_CORPUS_HOST_DIR in .env to the corpus folder (the one holding SOURCES.json),",
            "  then run .\install.ps1 again.")
    }
}

# Poll `docker compose ps` until every service is healthy (one-shots: exited 0).
function Wait-Healthy {
    $services = @(Invoke-Compose config --services | Where-Object { $_ })
    $deadline = (Get-Date).AddSeconds($HealthTimeout)
    Write-Host "waiting for $($services -join ' ') (at most ${HealthTimeout}s)"
    while ($true) {
        $status = @{}
        $format = '{{.Service}} {{.State}} {{if .Health}}{{.Health}}{{else}}-{{end}} {{.ExitCode}}'
        foreach ($line in Invoke-Compose ps --all --format $format) {
            $fields = "$line".Trim() -split '\s+'
            if ($fields.Count -ge 4) { $status[$fields[0]] = $fields }
        }
        $waiting = @()
        foreach ($service in $services) {
            $fields = if ($status.ContainsKey($service)) { $status[$service] } else { @($service, 'absent', '-', '-') }
            $state, $health, $code = $fields[1], $fields[2], $fields[3]
            if ($OneShotServices -contains $service) {
                if ($state -eq 'exited' -and $code -ne '0') {
                    Stop-Install 5 @(
                        "$service failed (exit code $code).",
                        "  See why: docker compose -f $ComposeFileName logs $service",
                        "  Fix it, then run .\install.ps1 again.")
                }
                if (-not ($state -eq 'exited' -and $code -eq '0')) { $waiting += "$service ($state)" }
            }
            elseif (-not ($state -eq 'running' -and $health -eq 'healthy')) {
                $waiting += "$service ($state, $health)"
            }
        }
        if ($waiting.Count -eq 0) {
            Write-Host 'all services are up'
            return
        }
        if ((Get-Date) -ge $deadline) {
            Stop-Install 5 @(
                "not up after ${HealthTimeout}s: $($waiting -join ' ')",
                "  See why: docker compose -f $ComposeFileName logs <service>",
                "  A first start builds the index from the corpus and can take a while:",
                "  set ASAT_INSTALL_TIMEOUT=1800 and run .\install.ps1 again to wait longer.")
        }
        Write-Host "  waiting: $($waiting -join ' ')"
        Start-Sleep -Seconds $PollSeconds
    }
}

function Show-Where {
    $apiPort = Get-EnvValue 'ASAT_RESEARCH_HOST_PORT' $EnvFile
    if (-not $apiPort) { $apiPort = '8730' }
    $webPort = Get-EnvValue 'ASAT_WEB_HOST_PORT' $EnvFile
    if (-not $webPort) { $webPort = '8740' }
    Write-Host ''
    if (@(Invoke-Compose config --services) -contains 'web') {
        Write-Host "AsAt is running: open http://localhost:$webPort"
    }
    else {
        Write-Host 'AsAt is running (the web interface is not built yet).'
    }
    Write-Host "Research API: http://localhost:$apiPort (health: /healthz)"
    Write-Host "Logs: docker compose -f $ComposeFileName logs -f    Stop: docker compose -f $ComposeFileName down"
    Write-Host 'Update: pull the new version, then run .\install.ps1 again (.env is kept).'
}

Set-Location -LiteralPath $PSScriptRoot
if (-not (Test-Path -LiteralPath $ComposeFileName)) {
    Stop-Install 1 @("$ComposeFileName not found: run install.ps1 from an AsAt checkout.")
}
if (-not $NoStart) { Test-Docker }
Write-EnvFile $Local.IsPresent
if ($NoStart) { exit 0 }
Test-Corpus
Write-Host "building and starting (docker compose -f $ComposeFileName up -d --build)"
Invoke-Compose up -d --build --remove-orphans
if ($LASTEXITCODE -ne 0) {
    Stop-Install 5 @("'docker compose up' failed (exit code $LASTEXITCODE): see its output above.")
}
Wait-Healthy
Show-Where
