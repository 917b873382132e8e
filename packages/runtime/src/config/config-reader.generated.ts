// Generated from runtimeConfigSchema by src/config/generate-config-reader.ts. Do not edit:
// `node generate-config-reader.ts` in packages/runtime (the build runs it) rewrites
// it, and config-reader.test.ts fails when it is not what the schemas give.
import type { EnvMapping } from "../config-loader/env-mapping.js";
import type { ConfigNode } from "./config-reader.js";

/** The composed configuration schema, as the zod-free reader reads it. */
export const CONFIG_NODE: ConfigNode = {
  "kind": "object",
  "keys": {
    "provider": {
      "kind": "prefault",
      "inner": {
        "kind": "object",
        "keys": {
          "type": {
            "kind": "default",
            "inner": {
              "kind": "literal",
              "values": [
                "ollama",
                "openai",
                "copilot",
                "local"
              ]
            },
            "value": "ollama"
          },
          "ollama": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "host": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "refine": "isOllamaHost"
                      }
                    ]
                  },
                  "value": "http://localhost:11434"
                },
                "model": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  },
                  "value": "llama3.2:latest"
                },
                "request_timeout_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 600
                },
                "num_ctx": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 256,
                        "inclusive": true
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "openai": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "base_url": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "refine": "isHttpUrlWithoutCredentials"
                      }
                    ]
                  },
                  "value": "https://api.openai.com/v1"
                },
                "model": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  },
                  "value": "gpt-4o-mini"
                },
                "organization_id": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "request_timeout_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 600
                },
                "enable_streaming": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": true
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "copilot": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "model": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  },
                  "value": "gpt-5-mini"
                },
                "client_id": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "api_base": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "refine": "isHttpUrlWithoutCredentials"
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "local": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "model_path": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "threads": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 512,
                        "inclusive": true
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          }
        },
        "unknownKeys": "strict"
      },
      "value": {}
    },
    "agent": {
      "kind": "prefault",
      "inner": {
        "kind": "object",
        "keys": {
          "max_turns": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                },
                {
                  "max": 1000,
                  "inclusive": true
                }
              ]
            },
            "value": 50
          },
          "timeout_seconds": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                },
                {
                  "max": 2147483,
                  "inclusive": true
                }
              ]
            },
            "value": 300
          },
          "max_tool_calls": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                }
              ]
            },
            "value": 200
          },
          "max_tool_calls_per_step": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                }
              ]
            },
            "value": 16
          },
          "max_repeated_tool_calls": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                }
              ]
            },
            "value": 3
          },
          "max_output_tokens": {
            "kind": "default",
            "inner": {
              "kind": "number",
              "checks": [
                {
                  "int": true
                },
                {
                  "min": 1,
                  "inclusive": true
                }
              ]
            },
            "value": 8192
          },
          "approval_policy": {
            "kind": "optional",
            "inner": {
              "kind": "literal",
              "values": [
                "untrusted",
                "on-escalation",
                "never"
              ]
            }
          },
          "conversation": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "max_tokens": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 100000
                },
                "min_retain_turns": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 0,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 5
                },
                "prune_threshold": {
                  "kind": "default",
                  "inner": {
                    "kind": "union",
                    "options": [
                      {
                        "kind": "number",
                        "checks": [
                          {
                            "min": 0,
                            "inclusive": false
                          },
                          {
                            "max": 1,
                            "inclusive": true
                          }
                        ]
                      },
                      {
                        "kind": "literal",
                        "values": [
                          false
                        ]
                      }
                    ]
                  },
                  "value": 0.8
                },
                "warning_threshold": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "min": 0,
                        "inclusive": false
                      },
                      {
                        "max": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 0.85
                },
                "critical_threshold": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "min": 0,
                        "inclusive": false
                      },
                      {
                        "max": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 0.95
                }
              },
              "unknownKeys": "strict",
              "rules": [
                "criticalAtLeastWarning"
              ]
            },
            "value": {}
          },
          "tools": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "max_output_size": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1048576
                },
                "max_file_read_size": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 10485760
                },
                "packages": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "preprocess",
                      "step": "toolPackageFromName",
                      "inner": {
                        "kind": "object",
                        "keys": {
                          "name": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          },
                          "options": {
                            "kind": "default",
                            "inner": {
                              "kind": "record",
                              "key": {
                                "kind": "string",
                                "checks": []
                              },
                              "value": {
                                "kind": "unknown"
                              }
                            },
                            "value": {}
                          }
                        },
                        "unknownKeys": "strict"
                      }
                    }
                  },
                  "value": []
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "terminal": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "default_mode": {
                  "kind": "default",
                  "inner": {
                    "kind": "literal",
                    "values": [
                      "interactive",
                      "restricted_autonomous",
                      "full_autonomous"
                    ]
                  },
                  "value": "restricted_autonomous"
                },
                "timeout_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 30
                },
                "max_stdout_bytes": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 10485760
                },
                "max_stderr_bytes": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1048576
                },
                "allowlist": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "value": []
                },
                "custom_denylist": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "value": []
                },
                "sandbox": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": true
                },
                "network": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": false
                },
                "egress_hosts": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "value": []
                },
                "egress_unattended": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": false
                },
                "allow_unattended_git_writes": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": false
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "fetch": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "timeout_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 60
                },
                "max_response_size": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1048576
                },
                "allowed_ports": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "number",
                      "checks": [
                        {
                          "int": true
                        },
                        {
                          "min": 1,
                          "inclusive": true
                        },
                        {
                          "max": 65535,
                          "inclusive": true
                        }
                      ]
                    }
                  },
                  "value": [
                    80,
                    443
                  ]
                },
                "allowed_hosts": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "value": []
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "mentions": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "max_file_size": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 10485760
                },
                "url_cache_ttl_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 86400
                },
                "max_urls_per_request": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 10
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "chat": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "default_mode": {
                  "kind": "default",
                  "inner": {
                    "kind": "literal",
                    "values": [
                      "planning",
                      "write"
                    ]
                  },
                  "value": "planning"
                },
                "default_safety": {
                  "kind": "default",
                  "inner": {
                    "kind": "literal",
                    "values": [
                      "safe",
                      "yolo"
                    ]
                  },
                  "value": "safe"
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "subagent": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "enabled": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": false
                },
                "max_depth": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 10,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 3
                },
                "default_max_turns": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 100,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 10
                },
                "output_max_size": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1024,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 16384
                },
                "max_concurrent": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 20,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 5
                },
                "persistence_enabled": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": true
                },
                "provider": {
                  "kind": "optional",
                  "inner": {
                    "kind": "literal",
                    "values": [
                      "ollama",
                      "openai",
                      "copilot",
                      "local"
                    ]
                  }
                },
                "model": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "max_executions": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  }
                },
                "max_total_tokens": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  }
                },
                "max_total_time": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "quota": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "max_executions": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 100
                },
                "max_total_tokens": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1000000
                },
                "max_total_tool_calls": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1000
                },
                "max_total_time_seconds": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 3600
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          }
        },
        "unknownKeys": "strict"
      },
      "value": {}
    },
    "persistence": {
      "kind": "prefault",
      "inner": {
        "kind": "object",
        "keys": {
          "enabled": {
            "kind": "default",
            "inner": {
              "kind": "boolean"
            },
            "value": true
          },
          "data_dir": {
            "kind": "optional",
            "inner": {
              "kind": "string",
              "checks": [
                {
                  "trim": true
                },
                {
                  "minLength": 1
                }
              ]
            }
          },
          "db_path": {
            "kind": "optional",
            "inner": {
              "kind": "string",
              "checks": [
                {
                  "trim": true
                },
                {
                  "minLength": 1
                }
              ]
            }
          }
        },
        "unknownKeys": "strict"
      },
      "value": {}
    },
    "logging": {
      "kind": "prefault",
      "inner": {
        "kind": "object",
        "keys": {
          "file": {
            "kind": "optional",
            "inner": {
              "kind": "string",
              "checks": [
                {
                  "trim": true
                },
                {
                  "minLength": 1
                }
              ]
            }
          }
        },
        "unknownKeys": "strict"
      },
      "value": {}
    },
    "mcp": {
      "kind": "prefault",
      "inner": {
        "kind": "preprocess",
        "step": "acceptMcpServersKey",
        "inner": {
          "kind": "object",
          "keys": {
            "servers": {
              "kind": "default",
              "inner": {
                "kind": "record",
                "key": {
                  "kind": "string",
                  "checks": [
                    {
                      "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
                      "flags": ""
                    }
                  ]
                },
                "value": {
                  "kind": "preprocess",
                  "step": "renamePastedKeys",
                  "inner": {
                    "kind": "object",
                    "keys": {
                      "type": {
                        "kind": "optional",
                        "inner": {
                          "kind": "literal",
                          "values": [
                            "stdio",
                            "http",
                            "streamable-http"
                          ]
                        }
                      },
                      "command": {
                        "kind": "optional",
                        "inner": {
                          "kind": "string",
                          "checks": [
                            {
                              "trim": true
                            },
                            {
                              "minLength": 1
                            }
                          ]
                        }
                      },
                      "args": {
                        "kind": "default",
                        "inner": {
                          "kind": "array",
                          "element": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "value": []
                      },
                      "env": {
                        "kind": "default",
                        "inner": {
                          "kind": "record",
                          "key": {
                            "kind": "string",
                            "checks": []
                          },
                          "value": {
                            "kind": "string",
                            "checks": []
                          }
                        },
                        "value": {}
                      },
                      "cwd": {
                        "kind": "optional",
                        "inner": {
                          "kind": "string",
                          "checks": [
                            {
                              "trim": true
                            },
                            {
                              "minLength": 1
                            }
                          ]
                        }
                      },
                      "url": {
                        "kind": "optional",
                        "inner": {
                          "kind": "string",
                          "checks": [
                            {
                              "refine": "isHttpUrlWithoutCredentials"
                            }
                          ]
                        }
                      },
                      "headers": {
                        "kind": "default",
                        "inner": {
                          "kind": "record",
                          "key": {
                            "kind": "string",
                            "checks": []
                          },
                          "value": {
                            "kind": "string",
                            "checks": []
                          }
                        },
                        "value": {}
                      },
                      "enabled": {
                        "kind": "default",
                        "inner": {
                          "kind": "boolean"
                        },
                        "value": true
                      },
                      "connect": {
                        "kind": "default",
                        "inner": {
                          "kind": "literal",
                          "values": [
                            "lazy",
                            "start"
                          ]
                        },
                        "value": "lazy"
                      },
                      "timeout_seconds": {
                        "kind": "default",
                        "inner": {
                          "kind": "number",
                          "checks": [
                            {
                              "int": true
                            },
                            {
                              "min": 1,
                              "inclusive": true
                            },
                            {
                              "max": 2147483,
                              "inclusive": true
                            }
                          ]
                        },
                        "value": 60
                      },
                      "include_tools": {
                        "kind": "default",
                        "inner": {
                          "kind": "array",
                          "element": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "value": []
                      },
                      "exclude_tools": {
                        "kind": "default",
                        "inner": {
                          "kind": "array",
                          "element": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "value": []
                      },
                      "trusted": {
                        "kind": "default",
                        "inner": {
                          "kind": "boolean"
                        },
                        "value": false
                      },
                      "trusted_tools": {
                        "kind": "default",
                        "inner": {
                          "kind": "array",
                          "element": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "value": []
                      },
                      "always_load": {
                        "kind": "default",
                        "inner": {
                          "kind": "union",
                          "options": [
                            {
                              "kind": "boolean"
                            },
                            {
                              "kind": "array",
                              "element": {
                                "kind": "string",
                                "checks": [
                                  {
                                    "trim": true
                                  },
                                  {
                                    "minLength": 1
                                  }
                                ]
                              }
                            }
                          ]
                        },
                        "value": false
                      }
                    },
                    "unknownKeys": "strict",
                    "rules": [
                      "oneTransportPerServer"
                    ]
                  }
                }
              },
              "value": {}
            },
            "connect_timeout_seconds": {
              "kind": "default",
              "inner": {
                "kind": "number",
                "checks": [
                  {
                    "int": true
                  },
                  {
                    "min": 1,
                    "inclusive": true
                  },
                  {
                    "max": 2147483,
                    "inclusive": true
                  }
                ]
              },
              "value": 30
            },
            "tool_search": {
              "kind": "prefault",
              "inner": {
                "kind": "object",
                "keys": {
                  "mode": {
                    "kind": "default",
                    "inner": {
                      "kind": "literal",
                      "values": [
                        "auto",
                        "always",
                        "never"
                      ]
                    },
                    "value": "auto"
                  },
                  "budget_tokens": {
                    "kind": "optional",
                    "inner": {
                      "kind": "number",
                      "checks": [
                        {
                          "int": true
                        },
                        {
                          "min": 1,
                          "inclusive": true
                        }
                      ]
                    }
                  }
                },
                "unknownKeys": "strict"
              },
              "value": {}
            }
          },
          "unknownKeys": "strict"
        }
      },
      "value": {}
    },
    "hooks": {
      "kind": "optional",
      "inner": {
        "kind": "object",
        "keys": {
          "SessionStart": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "UserPromptSubmit": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "PreToolUse": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "PostToolUse": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "Notification": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "SubagentStart": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "SubagentStop": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "PreCompact": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "Stop": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          },
          "SessionEnd": {
            "kind": "default",
            "inner": {
              "kind": "array",
              "element": {
                "kind": "object",
                "keys": {
                  "matcher": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "refine": "isHookMatcher"
                        }
                      ]
                    },
                    "value": ""
                  },
                  "hooks": {
                    "kind": "array",
                    "element": {
                      "kind": "object",
                      "keys": {
                        "type": {
                          "kind": "default",
                          "inner": {
                            "kind": "literal",
                            "values": [
                              "command"
                            ]
                          },
                          "value": "command"
                        },
                        "command": {
                          "kind": "string",
                          "checks": [
                            {
                              "minLength": 1
                            }
                          ]
                        },
                        "timeout": {
                          "kind": "default",
                          "inner": {
                            "kind": "number",
                            "checks": [
                              {
                                "int": true
                              },
                              {
                                "min": 1,
                                "inclusive": true
                              },
                              {
                                "max": 600,
                                "inclusive": true
                              }
                            ]
                          },
                          "value": 60
                        }
                      },
                      "unknownKeys": "strict"
                    },
                    "minLength": 1
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": []
          }
        },
        "unknownKeys": "strict"
      }
    },
    "watcher": {
      "kind": "optional",
      "inner": {
        "kind": "object",
        "keys": {
          "watcher_type": {
            "kind": "default",
            "inner": {
              "kind": "unsure",
              "why": "a transform",
              "inner": {
                "kind": "unsure",
                "why": "a preprocess without a zod-free function",
                "inner": {
                  "kind": "literal",
                  "values": [
                    "XZEPR",
                    "GENERIC"
                  ]
                }
              }
            },
            "value": "xzepr"
          },
          "kafka": {
            "kind": "prefault",
            "inner": {
              "kind": "unsure",
              "why": "a rule across keys without a zod-free function",
              "inner": {
                "kind": "object",
                "keys": {
                  "brokers": {
                    "kind": "optional",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "topic": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "xzepr.events"
                  },
                  "output_topic": {
                    "kind": "optional",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "dead_letter_topic": {
                    "kind": "optional",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "group_id": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "xzatoma-watcher"
                  },
                  "client_id": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "xzatoma-watcher"
                  },
                  "instance_id": {
                    "kind": "optional",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "pattern": "^[A-Za-z0-9._-]{1,200}$",
                          "flags": ""
                        }
                      ]
                    }
                  },
                  "auto_create_topics": {
                    "kind": "default",
                    "inner": {
                      "kind": "boolean"
                    },
                    "value": true
                  },
                  "num_partitions": {
                    "kind": "default",
                    "inner": {
                      "kind": "number",
                      "checks": [
                        {
                          "int": true
                        },
                        {
                          "min": 1,
                          "inclusive": true
                        },
                        {
                          "max": 10000,
                          "inclusive": true
                        }
                      ]
                    },
                    "value": 1
                  },
                  "replication_factor": {
                    "kind": "default",
                    "inner": {
                      "kind": "number",
                      "checks": [
                        {
                          "int": true
                        },
                        {
                          "min": 1,
                          "inclusive": true
                        },
                        {
                          "max": 32,
                          "inclusive": true
                        }
                      ]
                    },
                    "value": 1
                  },
                  "session_timeout_ms": {
                    "kind": "default",
                    "inner": {
                      "kind": "number",
                      "checks": [
                        {
                          "int": true
                        },
                        {
                          "min": 1,
                          "inclusive": true
                        },
                        {
                          "max": 2147483647,
                          "inclusive": true
                        }
                      ]
                    },
                    "value": 30000
                  },
                  "result_mode": {
                    "kind": "default",
                    "inner": {
                      "kind": "literal",
                      "values": [
                        "structured",
                        "binary"
                      ]
                    },
                    "value": "structured"
                  },
                  "security": {
                    "kind": "optional",
                    "inner": {
                      "kind": "object",
                      "keys": {
                        "protocol": {
                          "kind": "default",
                          "inner": {
                            "kind": "unsure",
                            "why": "a preprocess without a zod-free function",
                            "inner": {
                              "kind": "literal",
                              "values": [
                                "PLAINTEXT",
                                "SSL",
                                "SASL_PLAINTEXT",
                                "SASL_SSL"
                              ]
                            }
                          },
                          "value": "PLAINTEXT"
                        },
                        "sasl_mechanism": {
                          "kind": "optional",
                          "inner": {
                            "kind": "unsure",
                            "why": "a preprocess without a zod-free function",
                            "inner": {
                              "kind": "literal",
                              "values": [
                                "PLAIN",
                                "SCRAM-SHA-256",
                                "SCRAM-SHA-512"
                              ]
                            }
                          }
                        },
                        "sasl_username": {
                          "kind": "optional",
                          "inner": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "ssl_ca_file": {
                          "kind": "optional",
                          "inner": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "ssl_cert_file": {
                          "kind": "optional",
                          "inner": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "ssl_key_file": {
                          "kind": "optional",
                          "inner": {
                            "kind": "string",
                            "checks": [
                              {
                                "trim": true
                              },
                              {
                                "minLength": 1
                              }
                            ]
                          }
                        },
                        "ssl_reject_unauthorized": {
                          "kind": "default",
                          "inner": {
                            "kind": "boolean"
                          },
                          "value": true
                        }
                      },
                      "unknownKeys": "strict"
                    }
                  }
                },
                "unknownKeys": "strict"
              }
            },
            "value": {}
          },
          "filters": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "event_types": {
                  "kind": "default",
                  "inner": {
                    "kind": "array",
                    "element": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    }
                  },
                  "value": []
                },
                "source_pattern": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "platform_id": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "package": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "api_version": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "success_only": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": true
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "generic_match": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "action": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "name": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                },
                "version": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "execution": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "allow_dangerous": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": false
                },
                "max_concurrent_executions": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 256,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1
                },
                "execution_timeout_secs": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 300
                },
                "max_retries": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 0,
                        "inclusive": true
                      },
                      {
                        "max": 10,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 2
                },
                "retry_backoff_ms": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 0,
                        "inclusive": true
                      },
                      {
                        "max": 2147483647,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1000
                },
                "max_message_bytes": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 1,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 1048576
                },
                "shutdown_grace_secs": {
                  "kind": "default",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 0,
                        "inclusive": true
                      },
                      {
                        "max": 2147483,
                        "inclusive": true
                      }
                    ]
                  },
                  "value": 30
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "logging": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "level": {
                  "kind": "default",
                  "inner": {
                    "kind": "literal",
                    "values": [
                      "debug",
                      "info",
                      "warn",
                      "error"
                    ]
                  },
                  "value": "info"
                },
                "json_format": {
                  "kind": "default",
                  "inner": {
                    "kind": "boolean"
                  },
                  "value": true
                },
                "file_path": {
                  "kind": "optional",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  }
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          },
          "health": {
            "kind": "prefault",
            "inner": {
              "kind": "object",
              "keys": {
                "port": {
                  "kind": "optional",
                  "inner": {
                    "kind": "number",
                    "checks": [
                      {
                        "int": true
                      },
                      {
                        "min": 0,
                        "inclusive": true
                      },
                      {
                        "max": 65535,
                        "inclusive": true
                      }
                    ]
                  }
                },
                "host": {
                  "kind": "default",
                  "inner": {
                    "kind": "string",
                    "checks": [
                      {
                        "trim": true
                      },
                      {
                        "minLength": 1
                      }
                    ]
                  },
                  "value": "127.0.0.1"
                }
              },
              "unknownKeys": "strict"
            },
            "value": {}
          }
        },
        "unknownKeys": "strict"
      }
    },
    "xzepr": {
      "kind": "optional",
      "inner": {
        "kind": "unsure",
        "why": "a rule across keys without a zod-free function",
        "inner": {
          "kind": "object",
          "keys": {
            "api_url": {
              "kind": "optional",
              "inner": {
                "kind": "string",
                "checks": [
                  {
                    "refine": "isHttpUrlWithoutCredentials"
                  }
                ]
              }
            },
            "report_results": {
              "kind": "default",
              "inner": {
                "kind": "boolean"
              },
              "value": false
            },
            "receiver": {
              "kind": "prefault",
              "inner": {
                "kind": "object",
                "keys": {
                  "name": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "xzatoma-watcher"
                  },
                  "type": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "xzatoma.watcher.result"
                  },
                  "version": {
                    "kind": "default",
                    "inner": {
                      "kind": "string",
                      "checks": [
                        {
                          "trim": true
                        },
                        {
                          "minLength": 1
                        }
                      ]
                    },
                    "value": "1.0.0"
                  }
                },
                "unknownKeys": "strict"
              },
              "value": {}
            }
          },
          "unknownKeys": "strict"
        }
      }
    }
  },
  "unknownKeys": "strict"
};

/** One environment variable per leaf key of the schema whose value text can hold. */
export const DERIVED_ENV_MAPPINGS: readonly EnvMapping[] = [
  {
    "variable": "XZATOMA_PROVIDER_TYPE",
    "key": "provider.type",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OLLAMA_HOST",
    "key": "provider.ollama.host",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OLLAMA_MODEL",
    "key": "provider.ollama.model",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OLLAMA_REQUEST_TIMEOUT_SECONDS",
    "key": "provider.ollama.request_timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OLLAMA_NUM_CTX",
    "key": "provider.ollama.num_ctx",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OPENAI_BASE_URL",
    "key": "provider.openai.base_url",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OPENAI_MODEL",
    "key": "provider.openai.model",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OPENAI_ORGANIZATION_ID",
    "key": "provider.openai.organization_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OPENAI_REQUEST_TIMEOUT_SECONDS",
    "key": "provider.openai.request_timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_OPENAI_ENABLE_STREAMING",
    "key": "provider.openai.enable_streaming",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_COPILOT_MODEL",
    "key": "provider.copilot.model",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_COPILOT_CLIENT_ID",
    "key": "provider.copilot.client_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_COPILOT_API_BASE",
    "key": "provider.copilot.api_base",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_LOCAL_MODEL_PATH",
    "key": "provider.local.model_path",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PROVIDER_LOCAL_THREADS",
    "key": "provider.local.threads",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MAX_TURNS",
    "key": "agent.max_turns",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TIMEOUT_SECONDS",
    "key": "agent.timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MAX_TOOL_CALLS",
    "key": "agent.max_tool_calls",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MAX_TOOL_CALLS_PER_STEP",
    "key": "agent.max_tool_calls_per_step",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MAX_REPEATED_TOOL_CALLS",
    "key": "agent.max_repeated_tool_calls",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MAX_OUTPUT_TOKENS",
    "key": "agent.max_output_tokens",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_APPROVAL_POLICY",
    "key": "agent.approval_policy",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CONVERSATION_MAX_TOKENS",
    "key": "agent.conversation.max_tokens",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CONVERSATION_MIN_RETAIN_TURNS",
    "key": "agent.conversation.min_retain_turns",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CONVERSATION_PRUNE_THRESHOLD",
    "key": "agent.conversation.prune_threshold",
    "kind": "fractionOrOff",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CONVERSATION_WARNING_THRESHOLD",
    "key": "agent.conversation.warning_threshold",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CONVERSATION_CRITICAL_THRESHOLD",
    "key": "agent.conversation.critical_threshold",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TOOLS_MAX_OUTPUT_SIZE",
    "key": "agent.tools.max_output_size",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TOOLS_MAX_FILE_READ_SIZE",
    "key": "agent.tools.max_file_read_size",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TOOLS_PACKAGES",
    "key": "agent.tools.packages",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_DEFAULT_MODE",
    "key": "agent.terminal.default_mode",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_TIMEOUT_SECONDS",
    "key": "agent.terminal.timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_MAX_STDOUT_BYTES",
    "key": "agent.terminal.max_stdout_bytes",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_MAX_STDERR_BYTES",
    "key": "agent.terminal.max_stderr_bytes",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_ALLOWLIST",
    "key": "agent.terminal.allowlist",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_CUSTOM_DENYLIST",
    "key": "agent.terminal.custom_denylist",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_SANDBOX",
    "key": "agent.terminal.sandbox",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_NETWORK",
    "key": "agent.terminal.network",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_EGRESS_HOSTS",
    "key": "agent.terminal.egress_hosts",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_EGRESS_UNATTENDED",
    "key": "agent.terminal.egress_unattended",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_TERMINAL_ALLOW_UNATTENDED_GIT_WRITES",
    "key": "agent.terminal.allow_unattended_git_writes",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_FETCH_TIMEOUT_SECONDS",
    "key": "agent.fetch.timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_FETCH_MAX_RESPONSE_SIZE",
    "key": "agent.fetch.max_response_size",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_FETCH_ALLOWED_PORTS",
    "key": "agent.fetch.allowed_ports",
    "kind": "numberList",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_FETCH_ALLOWED_HOSTS",
    "key": "agent.fetch.allowed_hosts",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MENTIONS_MAX_FILE_SIZE",
    "key": "agent.mentions.max_file_size",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MENTIONS_URL_CACHE_TTL_SECONDS",
    "key": "agent.mentions.url_cache_ttl_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_MENTIONS_MAX_URLS_PER_REQUEST",
    "key": "agent.mentions.max_urls_per_request",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CHAT_DEFAULT_MODE",
    "key": "agent.chat.default_mode",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_CHAT_DEFAULT_SAFETY",
    "key": "agent.chat.default_safety",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_ENABLED",
    "key": "agent.subagent.enabled",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MAX_DEPTH",
    "key": "agent.subagent.max_depth",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_DEFAULT_MAX_TURNS",
    "key": "agent.subagent.default_max_turns",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_OUTPUT_MAX_SIZE",
    "key": "agent.subagent.output_max_size",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MAX_CONCURRENT",
    "key": "agent.subagent.max_concurrent",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_PERSISTENCE_ENABLED",
    "key": "agent.subagent.persistence_enabled",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_PROVIDER",
    "key": "agent.subagent.provider",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MODEL",
    "key": "agent.subagent.model",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MAX_EXECUTIONS",
    "key": "agent.subagent.max_executions",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MAX_TOTAL_TOKENS",
    "key": "agent.subagent.max_total_tokens",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_SUBAGENT_MAX_TOTAL_TIME",
    "key": "agent.subagent.max_total_time",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_QUOTA_MAX_EXECUTIONS",
    "key": "agent.quota.max_executions",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOKENS",
    "key": "agent.quota.max_total_tokens",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOOL_CALLS",
    "key": "agent.quota.max_total_tool_calls",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_AGENT_QUOTA_MAX_TOTAL_TIME_SECONDS",
    "key": "agent.quota.max_total_time_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PERSISTENCE_ENABLED",
    "key": "persistence.enabled",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PERSISTENCE_DATA_DIR",
    "key": "persistence.data_dir",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_PERSISTENCE_DB_PATH",
    "key": "persistence.db_path",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_LOGGING_FILE",
    "key": "logging.file",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_MCP_CONNECT_TIMEOUT_SECONDS",
    "key": "mcp.connect_timeout_seconds",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_MCP_TOOL_SEARCH_MODE",
    "key": "mcp.tool_search.mode",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_MCP_TOOL_SEARCH_BUDGET_TOKENS",
    "key": "mcp.tool_search.budget_tokens",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_SESSIONSTART",
    "key": "hooks.SessionStart",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_USERPROMPTSUBMIT",
    "key": "hooks.UserPromptSubmit",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_PRETOOLUSE",
    "key": "hooks.PreToolUse",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_POSTTOOLUSE",
    "key": "hooks.PostToolUse",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_NOTIFICATION",
    "key": "hooks.Notification",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_SUBAGENTSTART",
    "key": "hooks.SubagentStart",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_SUBAGENTSTOP",
    "key": "hooks.SubagentStop",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_PRECOMPACT",
    "key": "hooks.PreCompact",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_STOP",
    "key": "hooks.Stop",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_HOOKS_SESSIONEND",
    "key": "hooks.SessionEnd",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_WATCHER_TYPE",
    "key": "watcher.watcher_type",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_BROKERS",
    "key": "watcher.kafka.brokers",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_TOPIC",
    "key": "watcher.kafka.topic",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_OUTPUT_TOPIC",
    "key": "watcher.kafka.output_topic",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_DEAD_LETTER_TOPIC",
    "key": "watcher.kafka.dead_letter_topic",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_GROUP_ID",
    "key": "watcher.kafka.group_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_CLIENT_ID",
    "key": "watcher.kafka.client_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_INSTANCE_ID",
    "key": "watcher.kafka.instance_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_AUTO_CREATE_TOPICS",
    "key": "watcher.kafka.auto_create_topics",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_NUM_PARTITIONS",
    "key": "watcher.kafka.num_partitions",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_REPLICATION_FACTOR",
    "key": "watcher.kafka.replication_factor",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SESSION_TIMEOUT_MS",
    "key": "watcher.kafka.session_timeout_ms",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_RESULT_MODE",
    "key": "watcher.kafka.result_mode",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_PROTOCOL",
    "key": "watcher.kafka.security.protocol",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SASL_MECHANISM",
    "key": "watcher.kafka.security.sasl_mechanism",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SASL_USERNAME",
    "key": "watcher.kafka.security.sasl_username",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SSL_CA_FILE",
    "key": "watcher.kafka.security.ssl_ca_file",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SSL_CERT_FILE",
    "key": "watcher.kafka.security.ssl_cert_file",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SSL_KEY_FILE",
    "key": "watcher.kafka.security.ssl_key_file",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_KAFKA_SECURITY_SSL_REJECT_UNAUTHORIZED",
    "key": "watcher.kafka.security.ssl_reject_unauthorized",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_EVENT_TYPES",
    "key": "watcher.filters.event_types",
    "kind": "list",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_SOURCE_PATTERN",
    "key": "watcher.filters.source_pattern",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_PLATFORM_ID",
    "key": "watcher.filters.platform_id",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_PACKAGE",
    "key": "watcher.filters.package",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_API_VERSION",
    "key": "watcher.filters.api_version",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_FILTERS_SUCCESS_ONLY",
    "key": "watcher.filters.success_only",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_GENERIC_MATCH_ACTION",
    "key": "watcher.generic_match.action",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_GENERIC_MATCH_NAME",
    "key": "watcher.generic_match.name",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_GENERIC_MATCH_VERSION",
    "key": "watcher.generic_match.version",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_ALLOW_DANGEROUS",
    "key": "watcher.execution.allow_dangerous",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_MAX_CONCURRENT_EXECUTIONS",
    "key": "watcher.execution.max_concurrent_executions",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_EXECUTION_TIMEOUT_SECS",
    "key": "watcher.execution.execution_timeout_secs",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_MAX_RETRIES",
    "key": "watcher.execution.max_retries",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_RETRY_BACKOFF_MS",
    "key": "watcher.execution.retry_backoff_ms",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_MAX_MESSAGE_BYTES",
    "key": "watcher.execution.max_message_bytes",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_EXECUTION_SHUTDOWN_GRACE_SECS",
    "key": "watcher.execution.shutdown_grace_secs",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_LOGGING_LEVEL",
    "key": "watcher.logging.level",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_LOGGING_JSON_FORMAT",
    "key": "watcher.logging.json_format",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_LOGGING_FILE_PATH",
    "key": "watcher.logging.file_path",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_HEALTH_PORT",
    "key": "watcher.health.port",
    "kind": "number",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_WATCHER_HEALTH_HOST",
    "key": "watcher.health.host",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_XZEPR_API_URL",
    "key": "xzepr.api_url",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_XZEPR_REPORT_RESULTS",
    "key": "xzepr.report_results",
    "kind": "boolean",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_XZEPR_RECEIVER_NAME",
    "key": "xzepr.receiver.name",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_XZEPR_RECEIVER_TYPE",
    "key": "xzepr.receiver.type",
    "kind": "text",
    "origin": "derived"
  },
  {
    "variable": "XZATOMA_XZEPR_RECEIVER_VERSION",
    "key": "xzepr.receiver.version",
    "kind": "text",
    "origin": "derived"
  }
];

/** Keys whose values are paths: `~` is expanded and relative paths are made absolute. */
export const PATH_KEYS: readonly string[] = [
  "provider.local.model_path",
  "persistence.data_dir",
  "persistence.db_path",
  "logging.file"
];
